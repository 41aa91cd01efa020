import { loadPolicy } from '#hawser/policy';
import { restRoutes } from '../../api/src/policy/test-support/route-inventory.js';
import {
  eventually,
  startHawser,
  type ApiResponse,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import {
  addInSyncReplica,
  createReadableShare,
  type ManilaCall,
} from './test-support/replicated-share.js';

/*
 * Every route and Manila action, called by every persona, on the embedded default with noauth
 * tokens. What each persona must get comes from the default of the rule the table below names
 * for the route (read from the policy engine, never from the route's own declaration), so a
 * route that declares a looser or stricter rule than Manila's fails here.
 */

const P = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const O = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

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
  // noauth's `user:project` without roles is an admin, as Manila's noauth is.
  { name: 'admin', token: `root:${P}`, project: P, role: 'admin' },
];

/** The resources the calls act on; `S` is the project's public share, `PS` a private one. */
interface Ids {
  S: string;
  PS: string;
  SN: string;
  R: string;
  AR: string;
  PAR: string;
  ACTIVE: string;
  INST: string;
  TYPE: string;
  [name: string]: string;
}

/**
 * Where the call's resource belongs: `none` (a list, a create in the caller's project, a
 * catalogue), `share` (the public share: other projects read it but never change it), `hidden`
 * (a resource of the project others may not see: 404), `project` (a project named in the path:
 * 403 for others).
 */
type Scope = 'none' | 'share' | 'hidden' | 'project';

interface Case {
  /** The route as the inventory lists it, `METHOD /path` plus ` action` for Manila actions. */
  readonly route: string;
  /** Manila's rule for it (Hawser's `hawser:*` for its own endpoints). */
  readonly rule: string;
  readonly scope: Scope;
  readonly path: (ids: Ids) => string;
  readonly body?: (persona: number, ids: Ids) => unknown;
  readonly version?: string;
  /** Allowed callers must get a 2xx (not merely a non-403 refusal). */
  readonly succeeds?: boolean;
  /** Called on a resource made for each allowed caller, so earlier calls change nothing it needs. */
  readonly fresh?: (ids: Ids) => Promise<Ids>;
  /** What a hidden resource answers when not the 404 (an unknown share is a 400 there). */
  readonly hiddenStatus?: number;
  readonly public?: boolean;
  /** The route exists in no microversion: Manila's 404 for every caller, before any policy. */
  readonly inNoVersion?: boolean;
  /**
   * Past the rule, Manila's context check admits admins only (a quota class: a non-admin reads
   * only its own class, and tokens name none).
   */
  readonly adminContextOnly?: boolean;
}

type Outcome = 'allowed' | 'refused' | 'hidden' | 'unauthenticated';

const ADMIN = 'rule:context_is_admin';
const MEMBER = '(rule:context_is_admin) or (rule:project-member)';
const READER = '(rule:context_is_admin) or (rule:project-reader)';

describe('policy role matrix: every route and action for every persona, as the default rules say', () => {
  const policy = loadPolicy({ enforceNewDefaults: true });
  const checks = new Map(policy.rules().map((r) => [r.name, r.check]));
  let hawser: HawserTestServer;
  let ids: Ids;
  let denied = 0;

  const as = (token: string) => (method: string, route: string, body?: unknown) =>
    hawser.request(method, route, body, { token });
  const member = as(PERSONAS[4]?.token ?? '');
  const admin = as(PERSONAS[5]?.token ?? '');

  const available = async (shareId: string) =>
    eventually(
      async () =>
        (await admin('GET', `/v2/shares/${shareId}`)).body.share?.status === 'available'
          ? true
          : undefined,
      20_000,
      'the share to be available',
    );
  const freshShare = async (current: Ids): Promise<Ids> => {
    const created = await member('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default' },
    });
    expect(created.status).toBe(200);
    await available(created.body.share.id);
    return { ...current, id: created.body.share.id };
  };
  const freshSnapshot = async (current: Ids): Promise<Ids> => {
    const created = await member('POST', '/v2/snapshots', { snapshot: { share_id: current.S } });
    expect(created.status).toBe(202);
    return { ...current, id: created.body.snapshot.id };
  };

  /** What the persona must get, from the rule's default and the resource's project. */
  const expected = (persona: Persona, c: Case): Outcome => {
    if (c.public) return 'allowed';
    if (persona.role === 'none') return 'unauthenticated';
    if (c.inNoVersion) return 'hidden';
    if (c.adminContextOnly && persona.role !== 'admin') return 'refused';
    const check = checks.get(c.rule);
    const needs =
      check === ADMIN
        ? 'admin'
        : check === MEMBER
          ? 'member'
          : check === READER
            ? 'reader'
            : undefined;
    if (!needs) throw new Error(`${c.rule}: no persona default (${String(check)})`);
    const rank: Record<Role, number> = { none: 0, reader: 1, member: 2, admin: 3 };
    if (rank[persona.role] < rank[needs]) return 'refused';
    if (persona.role === 'admin' || persona.project === P) return 'allowed';
    const read = c.route.startsWith('GET ') || c.route.endsWith(' access_list');
    switch (c.scope) {
      case 'none':
        return 'allowed';
      case 'share':
        return read ? 'allowed' : 'refused';
      case 'hidden':
        return 'hidden';
      case 'project':
        return 'refused';
    }
  };

  const matches = (outcome: Outcome, c: Case, response: ApiResponse): boolean => {
    switch (outcome) {
      case 'unauthenticated':
        return response.status === 401;
      case 'refused':
        return (
          response.status === 403 &&
          response.body?.forbidden?.message === `Policy doesn't allow ${c.rule} to be performed.`
        );
      case 'hidden':
        return response.status === (c.hiddenStatus ?? 404);
      case 'allowed':
        return c.succeeds
          ? response.status >= 200 && response.status < 400
          : response.status < 500 && ![401, 403].includes(response.status);
    }
  };

  const share = (path: string) => (i: Ids) => `/v2/shares/${i.S}${path}`;
  const action = (
    name: string,
    argument: unknown,
    rule: string,
    scope: Scope,
    extra: Partial<Case> = {},
  ): Case => ({
    route: `POST /v2/shares/:id/action ${name}`,
    rule,
    scope,
    path: share('/action'),
    body: () => ({ [name]: argument }),
    ...extra,
  });
  const freshShareAction = (name: string, argument: unknown, rule: string): Case =>
    action(name, argument, rule, 'share', {
      fresh: freshShare,
      path: (i) => `/v2/shares/${i.id ?? i.S}/action`,
    });

  /** A Manila action on a resource of the project's that other projects may not see. */
  const hiddenAction = (
    collection: 'snapshots' | 'share-replicas' | 'share_instances',
    name: string,
    argument: unknown,
    rule: string,
    id: (ids: Ids) => string,
    extra: Partial<Case> = {},
  ): Case => ({
    route: `POST /v2/${collection}/:id/action ${name}`,
    rule,
    scope: 'hidden',
    path: (i) => `/v2/${collection}/${id(i)}/action`,
    body: () => ({ [name]: argument }),
    ...extra,
  });

  /**
   * An admin's reset_status (to available) and force_delete (by default of an unknown id) of
   * the collection's resource, under the rules `{rules}:reset_status` and `{rules}:force_delete`.
   */
  const resetAndForceDelete = (
    collection: Parameters<typeof hiddenAction>[0],
    rules: string,
    id: (ids: Ids) => string,
    {
      id: forceDeleted = () => UNKNOWN,
      ...forceDelete
    }: Partial<Case> & { id?: (ids: Ids) => string } = {},
  ): Case[] => [
    hiddenAction(collection, 'reset_status', { status: 'available' }, `${rules}:reset_status`, id, {
      succeeds: true,
    }),
    hiddenAction(
      collection,
      'force_delete',
      null,
      `${rules}:force_delete`,
      forceDeleted,
      forceDelete,
    ),
  ];

  /** The routes of the project's quota set under `/v2/{base}`. */
  const quotaSetCases = (base: 'quota-sets' | 'os-quota-sets', version?: string): Case[] =>
    (
      [
        ['GET', '', 'quota_set:show'],
        ['GET', '/defaults', 'quota_set:show'],
        ['GET', '/detail', 'quota_set:show'],
        ['PUT', '', 'quota_set:update'],
        ['DELETE', '', 'quota_set:delete'],
      ] as const
    ).map(([method, tail, rule]) => ({
      route: `${method} /v2/${base}/:project${tail}`,
      rule,
      scope: 'project',
      path: () => `/v2/${base}/${P}${tail}`,
      ...(method === 'PUT' && { body: () => ({ quota_set: { shares: 50 } }) }),
      version,
      // Details came in 2.25, after /os-quota-sets left in 2.7: that route is in no version.
      ...(version && tail === '/detail' ? { inNoVersion: true } : { succeeds: true }),
    }));

  /** The `default` quota class under `/v2/{base}`; a PUT sets what it shows already. */
  const quotaClassCases = (base: 'quota-class-sets' | 'os-quota-class-sets', version?: string) =>
    (
      [
        ['GET', 'quota_class_set:show'],
        ['PUT', 'quota_class_set:update'],
      ] as const
    ).map(([method, rule]): Case => ({
      route: `${method} /v2/${base}/:className`,
      rule,
      scope: 'none',
      path: () => `/v2/${base}/default`,
      ...(method === 'PUT' && { body: () => ({ quota_class_set: { shares: 50 } }) }),
      version,
      adminContextOnly: true,
      succeeds: true,
    }));

  const CASES: readonly Case[] = [
    // Unauthenticated documents.
    { route: 'GET /', rule: '', scope: 'none', path: () => '/', public: true },
    { route: 'GET /v2', rule: '', scope: 'none', path: () => '/v2', public: true },
    {
      route: 'GET /v2/extensions',
      rule: 'hawser:extensions:index',
      scope: 'none',
      path: () => '/v2/extensions',
      succeeds: true,
    },
    {
      route: 'GET /v2/extensions/:alias',
      rule: 'hawser:extensions:index',
      scope: 'none',
      path: () => '/v2/extensions/none',
    },
    {
      route: 'GET /healthcheck',
      rule: '',
      scope: 'none',
      path: () => '/healthcheck',
      public: true,
    },
    {
      route: 'GET /hawser/v1/openapi.json',
      rule: '',
      scope: 'none',
      path: () => '/hawser/v1/openapi.json',
      public: true,
    },
    {
      route: 'GET /health/live',
      rule: '',
      scope: 'none',
      path: () => '/health/live',
      public: true,
    },
    {
      route: 'GET /health/ready',
      rule: '',
      scope: 'none',
      path: () => '/health/ready',
      public: true,
    },

    // Shares.
    {
      route: 'POST /v2/shares',
      rule: 'share:create',
      scope: 'none',
      path: () => '/v2/shares',
      body: () => ({ share: { share_proto: 'NFS', size: 1, share_type: 'default' } }),
      succeeds: true,
    },
    {
      route: 'GET /v2/shares',
      rule: 'share:get_all',
      scope: 'none',
      path: () => '/v2/shares',
      succeeds: true,
    },
    {
      route: 'GET /v2/shares/detail',
      rule: 'share:get_all',
      scope: 'none',
      path: () => '/v2/shares/detail',
      succeeds: true,
    },
    {
      route: 'GET /v2/shares/:id',
      rule: 'share:get',
      scope: 'share',
      path: share(''),
      succeeds: true,
    },
    {
      route: 'PUT /v2/shares/:id',
      rule: 'share:update',
      scope: 'share',
      path: share(''),
      body: (n) => ({ share: { display_name: `by-${n}` } }),
      succeeds: true,
    },
    {
      route: 'DELETE /v2/shares/:id',
      rule: 'share:delete',
      scope: 'share',
      path: (i) => `/v2/shares/${i.id ?? i.S}`,
      fresh: freshShare,
      succeeds: true,
    },
    {
      route: 'GET /v2/shares/:id/metadata',
      rule: 'share:get_share_metadata',
      scope: 'share',
      path: share('/metadata'),
      succeeds: true,
    },
    {
      route: 'GET /v2/shares/:id/metadata/:key',
      rule: 'share:get_share_metadata',
      scope: 'share',
      path: share('/metadata/k'),
      succeeds: true,
    },
    {
      route: 'POST /v2/shares/:id/metadata',
      rule: 'share:update_share_metadata',
      scope: 'share',
      path: share('/metadata'),
      body: (n) => ({ metadata: { [`by-${n}`]: 'x' } }),
      succeeds: true,
    },
    {
      route: 'POST /v2/shares/:id/metadata/:key',
      rule: 'share:update_share_metadata',
      scope: 'share',
      path: share('/metadata/item'),
      body: () => ({ metadata: { item: 'x' } }),
      succeeds: true,
    },
    {
      route: 'PUT /v2/shares/:id/metadata',
      rule: 'share:update_share_metadata',
      scope: 'share',
      path: share('/metadata'),
      body: (n) => ({ metadata: { k: 'v', [`by-${n}`]: 'x' } }),
      succeeds: true,
    },
    {
      route: 'DELETE /v2/shares/:id/metadata/:key',
      rule: 'share:delete_share_metadata',
      scope: 'share',
      path: share('/metadata/gone'),
      fresh: async (i) => {
        expect(
          (await member('POST', `/v2/shares/${i.S}/metadata`, { metadata: { gone: 'x' } })).status,
        ).toBe(200);
        return i;
      },
      succeeds: true,
    },
    action('allow_access', undefined, 'share:allow_access', 'share', {
      body: (n) => ({
        allow_access: { access_type: 'ip', access_to: `10.9.9.${n}`, access_level: 'rw' },
      }),
      succeeds: true,
    }),
    action('deny_access', undefined, 'share:deny_access', 'share', {
      body: (_n, i) => ({ deny_access: { access_id: i.id ?? i.AR } }),
      fresh: async (i) => {
        const allowed = await member('POST', `/v2/shares/${i.S}/action`, {
          allow_access: {
            access_type: 'ip',
            access_to: `10.8.8.${(denied += 1)}`,
            access_level: 'ro',
          },
        });
        expect(allowed.status).toBe(200);
        return { ...i, id: allowed.body.access.id };
      },
      succeeds: true,
    }),
    action('access_list', null, 'share:access_get_all', 'share', {
      version: '2.44',
      succeeds: true,
    }),
    action('reset_status', { status: 'available' }, 'share:reset_status', 'share', {
      succeeds: true,
    }),
    freshShareAction('force_delete', null, 'share:force_delete'),
    freshShareAction('extend', { new_size: 2 }, 'share:extend'),
    freshShareAction('shrink', { new_size: 1 }, 'share:shrink'),
    action('revert', { snapshot_id: UNKNOWN }, 'share:revert_to_snapshot', 'share'),
    freshShareAction('unmanage', null, 'share:unmanage'),
    {
      route: 'POST /v2/shares/manage',
      rule: 'share:manage',
      scope: 'none',
      path: () => '/v2/shares/manage',
      body: () => ({ share: {} }),
    },
    {
      route: 'GET /v2/snapshot-instances',
      rule: 'share_snapshot_instance:index',
      scope: 'none',
      path: () => '/v2/snapshot-instances',
      succeeds: true,
    },
    {
      route: 'GET /v2/snapshot-instances/detail',
      rule: 'share_snapshot_instance:detail',
      scope: 'none',
      path: () => '/v2/snapshot-instances/detail',
      succeeds: true,
    },
    {
      route: 'GET /v2/snapshot-instances/:id',
      rule: 'share_snapshot_instance:show',
      scope: 'none',
      path: () => `/v2/snapshot-instances/${UNKNOWN}`,
    },
    {
      route: 'GET /v2/snapshot-instances/:id/export-locations',
      rule: 'share_snapshot_instance_export_location:index',
      scope: 'none',
      path: () => `/v2/snapshot-instances/${UNKNOWN}/export-locations`,
    },
    {
      route: 'POST /v2/snapshot-instances/:id/action reset_status',
      rule: 'share_snapshot_instance:reset_status',
      scope: 'none',
      path: () => `/v2/snapshot-instances/${UNKNOWN}/action`,
      body: () => ({ reset_status: { status: 'error' } }),
    },
    freshShareAction('soft_delete', null, 'share:soft_delete'),
    // Migration actions with arguments the allowed personas are refused for (400): nothing moves.
    action('migration_start', { host: 'nowhere@none#none' }, 'share:migration_start', 'share'),
    action('migration_complete', null, 'share:migration_complete', 'share'),
    action('migration_cancel', null, 'share:migration_cancel', 'share'),
    action('migration_get_progress', null, 'share:migration_get_progress', 'share'),
    action(
      'reset_task_state',
      { task_state: 'not-a-task-state' },
      'share:reset_task_state',
      'share',
    ),
    freshShareAction('restore', null, 'share:restore'),
    {
      route: 'GET /v2/shares/:id/export_locations',
      rule: 'share_export_location:index',
      scope: 'share',
      path: share('/export_locations'),
      succeeds: true,
      // Manila's share:get check on the private share: a 403, not the 404 of GET /shares/{id}.
      hiddenStatus: 403,
    },
    {
      route: 'GET /v2/shares/:id/export_locations/:locationId',
      rule: 'share_export_location:show',
      scope: 'share',
      path: share(`/export_locations/${UNKNOWN}`),
      hiddenStatus: 403,
    },
    {
      route: 'GET /v2/shares/:shareId/instances',
      rule: 'share_instance:index',
      scope: 'share',
      path: share('/instances'),
      succeeds: true,
    },

    // Snapshots (of the project: hidden from others).
    {
      route: 'POST /v2/snapshots',
      rule: 'share:create_snapshot',
      scope: 'share',
      path: () => '/v2/snapshots',
      body: (_n, i) => ({ snapshot: { share_id: i.S } }),
      succeeds: true,
    },
    {
      route: 'GET /v2/snapshots',
      rule: 'share_snapshot:get_all_snapshots',
      scope: 'none',
      path: () => '/v2/snapshots',
      succeeds: true,
    },
    {
      route: 'GET /v2/snapshots/detail',
      rule: 'share_snapshot:get_all_snapshots',
      scope: 'none',
      path: () => '/v2/snapshots/detail',
      succeeds: true,
    },
    {
      route: 'GET /v2/snapshots/:id',
      rule: 'share_snapshot:get_snapshot',
      scope: 'hidden',
      path: (i) => `/v2/snapshots/${i.SN}`,
      succeeds: true,
    },
    {
      route: 'PUT /v2/snapshots/:id',
      rule: 'share:snapshot_update',
      scope: 'hidden',
      path: (i) => `/v2/snapshots/${i.SN}`,
      body: (n) => ({ snapshot: { display_name: `by-${n}` } }),
      succeeds: true,
    },
    {
      route: 'DELETE /v2/snapshots/:id',
      rule: 'share:delete_snapshot',
      scope: 'hidden',
      path: (i) => `/v2/snapshots/${i.id ?? i.SN}`,
      fresh: freshSnapshot,
    },
    {
      route: 'GET /v2/snapshots/:id/export-locations',
      rule: 'share_snapshot_export_location:index',
      scope: 'hidden',
      path: (i) => `/v2/snapshots/${i.SN}/export-locations`,
      succeeds: true,
    },
    {
      route: 'POST /v2/snapshots/manage',
      rule: 'share_snapshot:manage_snapshot',
      scope: 'none',
      path: () => '/v2/snapshots/manage',
      body: () => ({ snapshot: {} }),
    },
    hiddenAction('snapshots', 'unmanage', null, 'share_snapshot:unmanage_snapshot', () => UNKNOWN),
    // The matrix's share type does not mount snapshots: allowed callers get Manila's 400.
    hiddenAction(
      'snapshots',
      'allow_access',
      { access_type: 'ip', access_to: '10.0.0.1' },
      'share_snapshot:allow_access',
      (i) => i.SN,
    ),
    hiddenAction(
      'snapshots',
      'deny_access',
      { access_id: UNKNOWN },
      'share_snapshot:deny_access',
      (i) => i.SN,
    ),
    {
      route: 'GET /v2/snapshots/:id/access-list',
      rule: 'share_snapshot:access_list',
      scope: 'hidden',
      path: (i) => `/v2/snapshots/${i.SN}/access-list`,
    },
    {
      route: 'GET /v2/snapshots/:id/export-locations/:locationId',
      rule: 'share_snapshot_export_location:show',
      scope: 'hidden',
      path: (i) => `/v2/snapshots/${i.SN}/export-locations/${UNKNOWN}`,
    },
    {
      route: 'GET /v2/snapshot-instances/:id/export-locations/:locationId',
      rule: 'share_snapshot_instance_export_location:show',
      scope: 'none',
      path: () => `/v2/snapshot-instances/${UNKNOWN}/export-locations/${UNKNOWN}`,
    },
    ...resetAndForceDelete('snapshots', 'share_snapshot', (i) => i.SN, {
      id: (i) => i.id ?? i.SN,
      fresh: freshSnapshot,
      succeeds: true,
    }),
    {
      route: 'GET /v2/snapshots/:id/metadata',
      rule: 'share_snapshot:get_metadata',
      scope: 'hidden',
      path: (i) => `/v2/snapshots/${i.SN}/metadata`,
      version: '2.73',
      succeeds: true,
    },
    {
      route: 'GET /v2/snapshots/:id/metadata/:key',
      rule: 'share_snapshot:get_metadata',
      scope: 'hidden',
      path: (i) => `/v2/snapshots/${i.SN}/metadata/k`,
      version: '2.73',
    },
    ...(['POST', 'PUT'] as const).map((method): Case => ({
      route: `${method} /v2/snapshots/:id/metadata`,
      rule: 'share_snapshot:update_metadata',
      scope: 'hidden',
      path: (i) => `/v2/snapshots/${i.SN}/metadata`,
      body: (n) => ({ metadata: { [`by-${n}`]: 'x' } }),
      version: '2.73',
      succeeds: true,
    })),
    {
      route: 'DELETE /v2/snapshots/:id/metadata/:key',
      rule: 'share_snapshot:delete_metadata',
      scope: 'hidden',
      path: (i) => `/v2/snapshots/${i.SN}/metadata/absent`,
      version: '2.73',
    },

    // Replicas of the project's share (hidden from others); creating one acts on the share.
    {
      route: 'POST /v2/share-replicas',
      rule: 'share_replica:create',
      scope: 'share',
      path: () => '/v2/share-replicas',
      body: (_n, i) => ({ share_replica: { share_id: i.S, availability_zone: 'az-2' } }),
    },
    {
      route: 'GET /v2/share-replicas',
      rule: 'share_replica:get_all',
      scope: 'none',
      path: () => '/v2/share-replicas',
      succeeds: true,
    },
    {
      route: 'GET /v2/share-replicas/detail',
      rule: 'share_replica:get_all',
      scope: 'none',
      path: () => '/v2/share-replicas/detail',
      succeeds: true,
    },
    {
      route: 'GET /v2/share-replicas/:id',
      rule: 'share_replica:show',
      scope: 'hidden',
      path: (i) => `/v2/share-replicas/${i.R}`,
      succeeds: true,
    },
    {
      route: 'DELETE /v2/share-replicas/:id',
      rule: 'share_replica:delete',
      scope: 'hidden',
      path: () => `/v2/share-replicas/${UNKNOWN}`,
    },
    hiddenAction('share-replicas', 'promote', null, 'share_replica:promote', (i) => i.ACTIVE, {
      succeeds: true,
    }),
    hiddenAction('share-replicas', 'resync', null, 'share_replica:resync', (i) => i.ACTIVE, {
      succeeds: true,
    }),
    hiddenAction(
      'share-replicas',
      'reset_replica_state',
      { replica_state: 'in_sync' },
      'share_replica:reset_replica_state',
      (i) => i.R,
      { succeeds: true },
    ),
    ...resetAndForceDelete('share-replicas', 'share_replica', (i) => i.R),
    {
      route: 'GET /v2/share-replicas/:id/export-locations',
      rule: 'share_replica_export_location:index',
      scope: 'hidden',
      path: (i) => `/v2/share-replicas/${i.R}/export-locations`,
      succeeds: true,
    },
    {
      route: 'GET /v2/share-replicas/:id/export-locations/:locationId',
      rule: 'share_replica_export_location:show',
      scope: 'hidden',
      path: (i) => `/v2/share-replicas/${i.R}/export-locations/${UNKNOWN}`,
    },

    // Access rules: those of a public share are read by all, changed by its project only.
    {
      route: 'GET /v2/share-access-rules',
      rule: 'share_access_rule:index',
      scope: 'share',
      path: (i) => `/v2/share-access-rules?share_id=${i.S}`,
      succeeds: true,
      hiddenStatus: 400,
    },
    {
      route: 'GET /v2/share-access-rules/:id',
      rule: 'share_access_rule:get',
      scope: 'share',
      path: (i) => `/v2/share-access-rules/${i.AR}`,
      succeeds: true,
    },
    {
      route: 'PUT /v2/share-access-rules/:id/metadata',
      rule: 'share_access_metadata:update',
      scope: 'share',
      path: (i) => `/v2/share-access-rules/${i.AR}/metadata`,
      body: (n) => ({ metadata: { [`by-${n}`]: 'x' } }),
      succeeds: true,
    },
    {
      route: 'DELETE /v2/share-access-rules/:id/metadata/:key',
      rule: 'share_access_metadata:delete',
      scope: 'share',
      path: (i) => `/v2/share-access-rules/${i.AR}/metadata/absent`,
    },

    // Share instances and their export locations (admin).
    {
      route: 'GET /v2/share_instances',
      rule: 'share_instance:index',
      scope: 'none',
      path: () => '/v2/share_instances',
      succeeds: true,
    },
    {
      route: 'GET /v2/share_instances/:id',
      rule: 'share_instance:show',
      scope: 'hidden',
      path: (i) => `/v2/share_instances/${i.INST}`,
      succeeds: true,
    },
    ...resetAndForceDelete('share_instances', 'share_instance', (i) => i.INST),
    {
      route: 'GET /v2/share_instances/:id/export_locations',
      rule: 'share_instance_export_location:index',
      scope: 'hidden',
      path: (i) => `/v2/share_instances/${i.INST}/export_locations`,
      succeeds: true,
    },
    {
      route: 'GET /v2/share_instances/:id/export_locations/:locationId',
      rule: 'share_instance_export_location:show',
      scope: 'hidden',
      path: (i) => `/v2/share_instances/${i.INST}/export_locations/${UNKNOWN}`,
    },

    // Messages: none of the project exists; the rule decides before the 404.
    {
      route: 'GET /v2/messages',
      rule: 'message:get_all',
      scope: 'none',
      path: () => '/v2/messages',
      succeeds: true,
    },
    {
      route: 'GET /v2/messages/:id',
      rule: 'message:get',
      scope: 'hidden',
      path: () => `/v2/messages/${UNKNOWN}`,
    },
    {
      route: 'DELETE /v2/messages/:id',
      rule: 'message:delete',
      scope: 'hidden',
      path: () => `/v2/messages/${UNKNOWN}`,
    },

    // Share types.
    {
      route: 'POST /v2/types',
      rule: 'share_type:create',
      scope: 'none',
      path: () => '/v2/types',
      body: (n) => ({
        share_type: { name: `t-${n}`, extra_specs: { driver_handles_share_servers: 'false' } },
      }),
      succeeds: true,
    },
    {
      route: 'GET /v2/types',
      rule: 'share_type:index',
      scope: 'none',
      path: () => '/v2/types',
      succeeds: true,
    },
    {
      route: 'GET /v2/types/default',
      rule: 'share_type:default',
      scope: 'none',
      // No default type is configured here: 404 for those allowed to ask.
      path: () => '/v2/types/default',
    },
    {
      route: 'GET /v2/types/:id',
      rule: 'share_type:show',
      scope: 'none',
      path: (i) => `/v2/types/${i.TYPE}`,
      succeeds: true,
    },
    {
      route: 'PUT /v2/types/:id',
      rule: 'share_type:update',
      scope: 'none',
      path: (i) => `/v2/types/${i.TYPE}`,
      body: () => ({ share_type: { description: 'd' } }),
      succeeds: true,
    },
    {
      route: 'DELETE /v2/types/:id',
      rule: 'share_type:delete',
      scope: 'none',
      path: () => `/v2/types/${UNKNOWN}`,
    },
    {
      route: 'GET /v2/types/:id/share_type_access',
      rule: 'share_type:list_project_access',
      scope: 'none',
      path: (i) => `/v2/types/${i.TYPE}/share_type_access`,
    },
    {
      route: 'GET /v2/types/:id/os-share-type-access',
      rule: 'share_type:list_project_access',
      scope: 'none',
      path: (i) => `/v2/types/${i.TYPE}/os-share-type-access`,
      version: '2.6',
    },
    {
      route: 'POST /v2/types/:id/action addProjectAccess',
      rule: 'share_type:add_project_access',
      scope: 'none',
      path: () => `/v2/types/${UNKNOWN}/action`,
      body: () => ({ addProjectAccess: { project: O } }),
    },
    {
      route: 'POST /v2/types/:id/action removeProjectAccess',
      rule: 'share_type:remove_project_access',
      scope: 'none',
      path: () => `/v2/types/${UNKNOWN}/action`,
      body: () => ({ removeProjectAccess: { project: O } }),
    },
    {
      route: 'GET /v2/types/:id/extra_specs',
      rule: 'share_types_extra_spec:index',
      scope: 'none',
      path: (i) => `/v2/types/${i.TYPE}/extra_specs`,
      succeeds: true,
    },
    {
      route: 'GET /v2/types/:id/extra_specs/:key',
      rule: 'share_types_extra_spec:show',
      scope: 'none',
      path: (i) => `/v2/types/${i.TYPE}/extra_specs/driver_handles_share_servers`,
      succeeds: true,
    },
    {
      route: 'POST /v2/types/:id/extra_specs',
      rule: 'share_types_extra_spec:create',
      scope: 'none',
      path: (i) => `/v2/types/${i.TYPE}/extra_specs`,
      body: () => ({ extra_specs: { colour: 'blue' } }),
      succeeds: true,
    },
    {
      route: 'PUT /v2/types/:id/extra_specs/:key',
      rule: 'share_types_extra_spec:update',
      scope: 'none',
      path: (i) => `/v2/types/${i.TYPE}/extra_specs/color`,
      body: () => ({ color: 'blue' }),
      succeeds: true,
    },
    {
      route: 'DELETE /v2/types/:id/extra_specs/:key',
      rule: 'share_types_extra_spec:delete',
      scope: 'none',
      path: (i) => `/v2/types/${i.TYPE}/extra_specs/absent`,
    },

    // Quotas and limits: the project's own figures.
    ...quotaSetCases('quota-sets'),
    // Manila's name before 2.7.
    ...quotaSetCases('os-quota-sets', '2.6'),
    ...quotaClassCases('quota-class-sets'),
    ...quotaClassCases('os-quota-class-sets', '2.6'),
    {
      route: 'GET /v2/limits',
      rule: 'quota_set:show',
      scope: 'none',
      path: () => '/v2/limits',
      succeeds: true,
    },

    // The cloud's catalogue.
    {
      route: 'GET /v2/availability-zones',
      rule: 'availability_zone:index',
      scope: 'none',
      path: () => '/v2/availability-zones',
      succeeds: true,
    },
    {
      route: 'GET /v2/os-availability-zone',
      rule: 'availability_zone:index',
      scope: 'none',
      path: () => '/v2/os-availability-zone',
      version: '2.6',
      succeeds: true,
    },
    {
      route: 'GET /v2/services',
      rule: 'service:index',
      scope: 'none',
      path: () => '/v2/services',
      succeeds: true,
    },
    {
      route: 'GET /v2/os-services',
      rule: 'service:index',
      scope: 'none',
      path: () => '/v2/os-services',
      version: '2.6',
      succeeds: true,
    },
    {
      route: 'PUT /v2/services/:action',
      rule: 'service:update',
      scope: 'none',
      path: () => '/v2/services/enable',
      body: () => ({ host: 'sim@a1', binary: 'manila-share' }),
      succeeds: true,
    },
    {
      route: 'PUT /v2/os-services/:action',
      rule: 'service:update',
      scope: 'none',
      path: () => '/v2/os-services/enable',
      body: () => ({ host: 'sim@a1', binary: 'manila-share' }),
      version: '2.6',
      succeeds: true,
    },
    {
      route: 'GET /v2/scheduler-stats/pools',
      rule: 'scheduler_stats:pools:index',
      scope: 'none',
      path: () => '/v2/scheduler-stats/pools',
      succeeds: true,
    },
    {
      route: 'GET /v2/scheduler-stats/pools/detail',
      rule: 'scheduler_stats:pools:detail',
      scope: 'none',
      path: () => '/v2/scheduler-stats/pools/detail',
      succeeds: true,
    },

    // Hawser's own endpoints.
    {
      route: 'GET /hawser/v1/events',
      rule: 'hawser:events:get_all',
      scope: 'none',
      path: () => '/hawser/v1/events?limit=1',
      succeeds: true,
    },
    {
      route: 'GET /hawser/v1/streams/:streamId',
      rule: 'hawser:streams:get',
      scope: 'none',
      path: (i) => `/hawser/v1/streams/share-${i.S}`,
      succeeds: true,
    },
    {
      route: 'GET /hawser/v1/parked-events',
      rule: 'hawser:parked_events:get_all',
      scope: 'none',
      path: () => '/hawser/v1/parked-events',
      succeeds: true,
    },
    {
      route: 'POST /hawser/v1/parked-events/:id/retry',
      rule: 'hawser:parked_events:retry',
      scope: 'none',
      path: () => `/hawser/v1/parked-events/${UNKNOWN}/retry`,
    },
    {
      route: 'GET /metrics',
      rule: 'hawser:metrics:get',
      scope: 'none',
      path: () => '/metrics',
      succeeds: true,
    },
    {
      route: 'GET /hawser/v1/projections',
      rule: 'hawser:projections:get_all',
      scope: 'none',
      path: () => '/hawser/v1/projections',
      succeeds: true,
    },
    {
      route: 'POST /hawser/v1/projections/:name/rebuild',
      rule: 'hawser:projections:rebuild',
      scope: 'none',
      path: () => '/hawser/v1/projections/absent/rebuild',
    },
    {
      route: 'GET /hawser/v1/permissions',
      rule: 'hawser:permissions:get',
      scope: 'none',
      path: () => '/hawser/v1/permissions',
      succeeds: true,
    },
  ];

  beforeAll(async () => {
    hawser = await startHawser({ env: { HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1' } });
    const type = await createDefaultType(admin);
    const S = await createReadableShare(admin);
    // The admin made it in project P (its token's project); the project's member owns it.
    expect((await admin('PUT', `/v2/shares/${S}`, { share: { is_public: true } })).status).toBe(
      200,
    );
    expect(
      (await member('POST', `/v2/shares/${S}/metadata`, { metadata: { k: 'v' } })).status,
    ).toBe(200);
    const privateShare = await member('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default' },
    });
    await available(privateShare.body.share.id);
    const R = await addInSyncReplica(member, S);
    const ACTIVE = (
      await member('GET', `/v2/share-replicas?share_id=${S}`)
    ).body.share_replicas.find(
      (r: { id: string; replica_state: string }) => r.replica_state === 'active',
    ).id as string;
    const snapshot = await member('POST', '/v2/snapshots', { snapshot: { share_id: S } });
    const rule = await member('POST', `/v2/shares/${S}/action`, {
      allow_access: { access_type: 'ip', access_to: '10.7.7.7', access_level: 'ro' },
    });
    const privateRule = await member('POST', `/v2/shares/${privateShare.body.share.id}/action`, {
      allow_access: { access_type: 'ip', access_to: '10.6.6.6', access_level: 'ro' },
    });
    ids = {
      S,
      PS: privateShare.body.share.id,
      SN: snapshot.body.snapshot.id,
      R,
      ACTIVE,
      AR: rule.body.access.id,
      PAR: privateRule.body.access.id,
      INST: ACTIVE,
      TYPE: type.body.share_type.id as string,
    };
  }, 120_000);

  afterAll(async () => {
    await hawser?.close();
  });

  it('names, for every route and Manila action, the rule the route declares', () => {
    const declared = restRoutes().flatMap((r) =>
      r.actions
        ? r.actions.map((a) => [`${r.method} ${r.path} ${a.name}`, a.policy?.rule ?? ''])
        : [[`${r.method} ${r.path}`, r.policy?.rule ?? '']],
    );
    expect(Object.fromEntries(CASES.map((c) => [c.route, c.rule]))).toEqual(
      Object.fromEntries(declared),
    );
  });

  it.each(CASES.map((c) => [c.route, c] as const))('%s', async (_route, c) => {
    const wrong: string[] = [];
    for (const [n, persona] of PERSONAS.entries()) {
      const targets =
        // Another project is asked about the private share too: it must not learn it exists.
        c.scope === 'share' && persona.project === O
          ? [ids, { ...ids, S: ids.PS, AR: ids.PAR }]
          : [ids];
      for (const [t, base] of targets.entries()) {
        const hiddenShare = t === 1;
        const want = expected(persona, hiddenShare ? { ...c, scope: 'hidden' } : c);
        const given = c.fresh && want === 'allowed' ? await c.fresh(base) : base;
        const response = await hawser.request(methodOf(c), c.path(given), c.body?.(n, given), {
          token: persona.token,
          version: c.version ?? '2.72',
        });
        if (!matches(want, c, response)) {
          wrong.push(
            `${persona.name}${hiddenShare ? ' (private share)' : ''}: expected ${want}, got ${response.status} ${JSON.stringify(response.body).slice(0, 160)}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("leaves the public share as its project made it: other projects' writes changed nothing", async () => {
    const rules = (await member('GET', `/v2/share-access-rules?share_id=${ids.S}`, undefined)).body
      .access_list as { access_to: string }[];
    expect(rules.map((r) => r.access_to)).not.toEqual(expect.arrayContaining(['10.9.9.1']));
    expect(rules.map((r) => r.access_to)).not.toEqual(expect.arrayContaining(['10.9.9.2']));
    const metadata = (await member('GET', `/v2/shares/${ids.S}/metadata`)).body.metadata;
    expect(Object.keys(metadata)).not.toContain('by-1');
    expect(Object.keys(metadata)).not.toContain('by-2');
  });
});

/** The share type `default` the calls name, plain and with snapshots. */
const createDefaultType = async (call: ManilaCall): Promise<ApiResponse> => {
  const type = await call('POST', '/v2/types', {
    share_type: {
      name: 'default',
      extra_specs: { driver_handles_share_servers: 'false', snapshot_support: 'true' },
    },
  });
  expect(type.status).toBe(200);
  return type;
};

const methodOf = (c: Case): string => c.route.split(' ')[0] ?? 'GET';

describe('policy in legacy mode (HAWSER_POLICY_ENFORCE_NEW_DEFAULTS=false)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser({ env: { HAWSER_POLICY_ENFORCE_NEW_DEFAULTS: 'false' } });
    await createDefaultType((method, route, body) => hawser.request(method, route, body));
  });

  afterAll(async () => {
    await hawser?.close();
  });

  it("lets a project's reader create a share, as Manila Zed's deprecated defaults did", async () => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'default' } },
      { token: `rita:${P}:reader` },
    );
    expect(created.status).toBe(200);
  });

  it("still refuses another project's writes on a public share", async () => {
    const shared = await hawser.request('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default', is_public: true },
    });
    const allowed = await hawser.request(
      'POST',
      `/v2/shares/${shared.body.share.id}/action`,
      { allow_access: { access_type: 'ip', access_to: '10.1.1.1', access_level: 'rw' } },
      { token: `olga:${O}:member` },
    );
    expect(allowed.status).toBe(403);
  });
});
