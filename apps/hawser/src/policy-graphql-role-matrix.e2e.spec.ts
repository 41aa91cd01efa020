import { jest } from '@jest/globals';
import { loadPolicy } from '#hawser/policy';
import { graphqlFields } from '../../api/src/policy/test-support/route-inventory.js';
import { ShareChangeFeed } from '../../api/src/graphql/subscriptions/share-change-feed.js';
import { graphqlRequest, graphqlSocket } from './test-support/graphql-client.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

/*
 * Every GraphQL root query, subscription and field resolver, asked by every persona. What each
 * persona must get comes from the default of the rule the table names (read from the policy
 * engine, never from the resolver's declaration), as the REST role matrix does.
 */

const P = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const O = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

type Role = 'none' | 'reader' | 'member' | 'admin';
interface Persona {
  readonly name: string;
  readonly token: string;
  readonly project: string | undefined;
  readonly role: Role;
}

const PERSONAS: readonly Persona[] = [
  { name: 'no token', token: '', project: undefined, role: 'none' },
  { name: "another project's reader", token: `otto:${O}:reader`, project: O, role: 'reader' },
  { name: "another project's member", token: `olga:${O}:member`, project: O, role: 'member' },
  { name: 'reader', token: `rita:${P}:reader`, project: P, role: 'reader' },
  { name: 'member', token: `max:${P}:member`, project: P, role: 'member' },
  { name: 'admin', token: `root:${P}`, project: P, role: 'admin' },
];

/**
 * Where the field's resource is: `none` (a list scoped to the caller, a catalogue), `public`
 * (the project's public share: others read it), `owners` (the public share, for its project
 * only: 403 for others), `hidden` (the project's private share: 404 for others), `project` (a
 * project named by an argument: 403 for others).
 */
type Scope = 'none' | 'public' | 'owners' | 'hidden' | 'project';

interface Case {
  /** `Resolver.field`, as the route inventory lists it. */
  readonly field: string;
  readonly rule: string;
  readonly scope: Scope;
  readonly query: string;
  /** The path in `data` that holds the field's value when allowed. */
  readonly data: readonly string[];
  readonly subscription?: boolean;
}

type Outcome = 'allowed' | 'refused' | 'hidden' | 'unauthenticated';

const ADMIN = 'rule:context_is_admin';
const MEMBER = '(rule:context_is_admin) or (rule:project-member)';
const READER = '(rule:context_is_admin) or (rule:project-reader)';
const RANK: Record<Role, number> = { none: 0, reader: 1, member: 2, admin: 3 };

interface Ids {
  readonly S: string;
  readonly PS: string;
}

const CASES = (ids: Ids): readonly Case[] => [
  {
    field: 'SharesResolver.shares',
    rule: 'share:get_all',
    scope: 'none',
    query: '{ shares { totalCount } }',
    data: ['shares', 'totalCount'],
  },
  {
    field: 'SharesResolver.share',
    rule: 'share:get',
    scope: 'public',
    query: `{ share(id: "${ids.S}") { id } }`,
    data: ['share', 'id'],
  },
  {
    field: 'SharesResolver.share',
    rule: 'share:get',
    scope: 'hidden',
    query: `{ share(id: "${ids.PS}") { id } }`,
    data: ['share', 'id'],
  },
  {
    field: 'SharesResolver.replicas',
    rule: 'share_replica:get_all',
    scope: 'public',
    query: `{ share(id: "${ids.S}") { replicas { id } } }`,
    data: ['share', 'replicas'],
  },
  {
    field: 'ReplicasResolver.share',
    rule: 'share:get',
    scope: 'public',
    query: `{ share(id: "${ids.S}") { replicas { share { id } } } }`,
    data: ['share', 'replicas', '0', 'share', 'id'],
  },
  {
    field: 'SharesResolver.snapshots',
    rule: 'share_snapshot:get_all_snapshots',
    scope: 'public',
    query: `{ share(id: "${ids.S}") { snapshots { id } } }`,
    data: ['share', 'snapshots'],
  },
  {
    field: 'SharesResolver.accessRules',
    rule: 'share:access_get_all',
    scope: 'public',
    query: `{ share(id: "${ids.S}") { accessRules { id } } }`,
    data: ['share', 'accessRules'],
  },
  {
    field: 'SharesResolver.events',
    rule: 'hawser:share_events:get',
    scope: 'owners',
    query: `{ share(id: "${ids.S}") { events { type } } }`,
    data: ['share', 'events', '0', 'type'],
  },
  {
    field: 'CatalogueResolver.shareTypes',
    rule: 'share_type:index',
    scope: 'none',
    query: '{ shareTypes { name } }',
    data: ['shareTypes', '0', 'name'],
  },
  {
    field: 'CatalogueResolver.pools',
    rule: 'scheduler_stats:pools:index',
    scope: 'none',
    query: '{ pools { name } }',
    data: ['pools'],
  },
  {
    field: 'CatalogueResolver.messages',
    rule: 'message:get_all',
    scope: 'none',
    query: '{ messages { id } }',
    data: ['messages'],
  },
  {
    field: 'ShareChangesResolver.shareChanged',
    rule: 'hawser:share_changes:subscribe',
    scope: 'public',
    query: `subscription { shareChanged(id: "${ids.S}") { status } }`,
    data: [],
    subscription: true,
  },
  {
    field: 'ShareChangesResolver.shareChanged',
    rule: 'hawser:share_changes:subscribe',
    scope: 'hidden',
    query: `subscription { shareChanged(id: "${ids.PS}") { status } }`,
    data: [],
    subscription: true,
  },
  {
    field: 'ShareChangesResolver.projectSharesChanged',
    rule: 'hawser:share_changes:subscribe',
    scope: 'project',
    query: `subscription { projectSharesChanged(projectId: "${P}") { status } }`,
    data: [],
    subscription: true,
  },
];

/** What the persona must get, from the rule's default and the resource's project. */
const expectedOf = (checks: ReadonlyMap<string, string>, persona: Persona, c: Case): Outcome => {
  if (persona.role === 'none') return 'unauthenticated';
  const check = checks.get(c.rule);
  const needs: Role | undefined =
    check === ADMIN
      ? 'admin'
      : check === MEMBER
        ? 'member'
        : check === READER
          ? 'reader'
          : undefined;
  if (!needs) throw new Error(`${c.rule}: no persona default (${String(check)})`);
  if (RANK[persona.role] < RANK[needs]) return 'refused';
  if (persona.role === 'admin' || persona.project === P) return 'allowed';
  switch (c.scope) {
    case 'none':
    case 'public':
      return 'allowed';
    case 'hidden':
      return 'hidden';
    case 'owners':
    case 'project':
      return 'refused';
  }
};

const valueAt = (data: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      value === null || value === undefined ? undefined : (value as Record<string, unknown>)[key],
    data,
  );

interface GraphqlErrorBody {
  readonly message: string;
  readonly extensions?: { readonly code?: string };
}

/** The outcome the answer shows: data at the field, or the first error's code. */
const outcomeOfErrors = (
  errors: readonly GraphqlErrorBody[] | undefined,
  rule: string,
): Outcome | string => {
  const first = errors?.[0];
  if (!first) return 'allowed';
  if (first.extensions?.code === 'NOT_FOUND') return 'hidden';
  if (
    first.extensions?.code === 'FORBIDDEN' &&
    first.message === `Policy doesn't allow ${rule} to be performed.`
  ) {
    return 'refused';
  }
  return JSON.stringify(errors);
};

describe('policy role matrix over GraphQL: every root query, subscription and field for every persona', () => {
  const policy = loadPolicy({ enforceNewDefaults: true });
  const checks = new Map(policy.rules().map((r) => [r.name, r.check]));
  let hawser: HawserTestServer;
  let ids: Ids;

  const rest = (token: string) => (method: string, route: string, body?: unknown) =>
    hawser.request(method, route, body, { token });
  const admin = rest(`root:${P}`);
  const member = rest(`max:${P}:member`);

  const available = (shareId: string) =>
    eventually(
      async () =>
        (await admin('GET', `/v2/shares/${shareId}`)).body.share?.status === 'available'
          ? true
          : undefined,
      20_000,
      'the share to be available',
    );

  const newShare = async (): Promise<string> => {
    const created = await member('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default' },
    });
    expect(created.status).toBe(200);
    await available(created.body.share.id);
    return created.body.share.id as string;
  };

  /** Asked over HTTP: data at the field, or the error's code; 401 without a token. */
  const ask = async (persona: Persona, c: Case): Promise<Outcome | string> => {
    const response = await graphqlRequest(hawser.url, c.query, {}, persona.token);
    if (response.status === 401) return 'unauthenticated';
    const outcome = outcomeOfErrors(response.body?.errors, c.rule);
    if (outcome !== 'allowed') return outcome;
    const value = valueAt(response.body?.data, c.data);
    return value === undefined || value === null ? `no data at ${c.data.join('.')}` : 'allowed';
  };

  /**
   * Subscribed over a socket: allowed once the server listens to the change feed for it, else
   * the error's code; a socket refused for its token closes with 4403.
   */
  const subscribe = async (persona: Persona, c: Case): Promise<Outcome | string> => {
    const listens = jest.spyOn(hawser.app.get(ShareChangeFeed), 'listen');
    const listening = listens.mock.calls.length;
    const client = graphqlSocket(hawser.url, persona.token);
    const subscription = client.iterate<Record<string, unknown>>({ query: c.query });
    try {
      let settled: IteratorResult<unknown> | { error: unknown } | undefined;
      subscription.next().then(
        (result) => (settled = result),
        (error: unknown) => (settled = { error }),
      );
      return await eventually(
        async () => {
          if (listens.mock.calls.length > listening) return 'allowed';
          if (!settled) return undefined;
          if ('error' in settled) {
            const error = settled.error as { code?: number } | readonly GraphqlErrorBody[];
            if (!Array.isArray(error) && (error as { code?: number }).code === 4403) {
              return 'unauthenticated';
            }
            return outcomeOfErrors(error as readonly GraphqlErrorBody[], c.rule);
          }
          // A refused operation ends with its errors as a result, not as a thrown error.
          const errors = (settled as IteratorResult<{ errors?: readonly GraphqlErrorBody[] }>).value
            ?.errors;
          return errors
            ? outcomeOfErrors(errors, c.rule)
            : `settled without a refusal: ${JSON.stringify(settled)}`;
        },
        10_000,
        'the server to take or refuse the subscription',
      );
    } finally {
      listens.mockRestore();
      await subscription.return?.();
      await client.dispose();
    }
  };

  beforeAll(async () => {
    hawser = await startHawser();
    const type = await admin('POST', '/v2/types', {
      share_type: {
        name: 'default',
        extra_specs: { driver_handles_share_servers: 'false', snapshot_support: 'true' },
      },
    });
    expect(type.status).toBe(200);
    const S = await newShare();
    expect((await admin('PUT', `/v2/shares/${S}`, { share: { is_public: true } })).status).toBe(
      200,
    );
    ids = { S, PS: await newShare() };
  }, 60_000);

  afterAll(async () => {
    await hawser?.close();
  });

  it('names the rule every resolver declares, and covers every one', () => {
    const cases = CASES({ S: 'x', PS: 'y' });
    const declared = graphqlFields().map(
      (f) => [`${f.resolver}.${f.field}`, f.policy?.rule ?? ''] as const,
    );
    expect(Object.fromEntries(cases.map((c) => [c.field, c.rule]))).toEqual(
      Object.fromEntries(declared),
    );
    expect(declared.length).toBeGreaterThanOrEqual(12);
  });

  it('answers each persona as the default rules say, for every query, field and subscription', async () => {
    const wrong: string[] = [];
    for (const c of CASES(ids)) {
      for (const persona of PERSONAS) {
        const want = expectedOf(checks, persona, c);
        const got = c.subscription ? await subscribe(persona, c) : await ask(persona, c);
        if (got !== want) wrong.push(`${c.query} as ${persona.name}: expected ${want}, got ${got}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('shows the admin-only fields to admins alone', async () => {
    const query = `{ share(id: "${ids.S}") { host replicas { host } events { data } } }`;
    const wrong: string[] = [];
    for (const persona of PERSONAS.filter((p) => p.project === P)) {
      const { body } = await graphqlRequest(hawser.url, query, {}, persona.token);
      const share = body.data?.share as {
        host: string | null;
        replicas: { host: string | null }[];
        events: { data: string | null }[];
      };
      const shown = [share.host, share.replicas[0]?.host, share.events[0]?.data];
      const isAdmin = persona.role === 'admin';
      if (shown.some((value) => (value !== null && value !== undefined) !== isAdmin)) {
        wrong.push(`${persona.name}: ${JSON.stringify(shown)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
