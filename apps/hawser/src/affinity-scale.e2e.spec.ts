import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { simulatedPools } from './test-support/simulated-backends.js';

/*
 * Anti-affinity at scale: 1,000 shares, each created with different_host naming 3 random shares
 * that exist already, on 4 simulated pools. Three named shares can cover at most 3 pools, so
 * every request is satisfiable, and often exactly one pool is left: the hints decide, not the
 * weigher. Every placement is then checked against its hints as the read model shows them.
 */

const SHARES = 1_000;
const NAMED = 3;
const BATCH = 16;
/** Shares spread over projects, so no project's quota stream grows to a thousand holders. */
const PROJECTS = 25;
const DIFFERENT = '__affinity_different_host';

const backends = () =>
  simulatedPools({
    'east@sim': { p1: 100_000, p2: 100_000 },
    'west@sim': { p1: 100_000, p2: 100_000 },
  });

/** A small seeded generator (mulberry32): the same shares are named on every run. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const pick = (from: readonly string[], count: number, next: () => number): string[] => {
  const chosen = new Set<string>();
  while (chosen.size < count) chosen.add(from[Math.floor(next() * from.length)] as string);
  return [...chosen];
};

interface ListedShare {
  readonly id: string;
  readonly host: string;
  readonly status: string;
  readonly metadata: Record<string, string>;
}

describe(`anti-affinity at scale: ${SHARES} shares, each apart from ${NAMED} others`, () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser({ backends });
    const type = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
  });
  afterAll(() => hawser.close());

  let requests = 0;
  /** As an admin of one of the projects in turn: admins may name any project's shares. */
  const create = async (hints?: Record<string, string>) => {
    const project = String(requests++ % PROJECTS).padStart(32, 'a');
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'default', scheduler_hints: hints } },
      { token: `admin:${project}` },
    );
    if (created.status !== 200) throw new Error(JSON.stringify(created.body));
    return created.body.share.id as string;
  };
  const listAll = async (): Promise<ListedShare[]> => {
    const shares: ListedShare[] = [];
    for (;;) {
      const page = await hawser.request(
        'GET',
        `/v2/shares/detail?all_tenants=1&limit=1000&offset=${shares.length}&sort_key=created_at`,
      );
      shares.push(...page.body.shares);
      if (page.body.shares.length < 1000) return shares;
    }
  };

  // About 40 s alone on a busy two-core machine; the bound leaves room for a full parallel run.
  it('places every share on a pool none of its named shares is on, and links them all', async () => {
    const next = random(20261123);
    const started = Date.now();
    const existing = [await create(), await create(), await create()];
    const named = new Map<string, string[]>();
    // Requests go in small concurrent batches; each names shares created before its batch.
    while (named.size < SHARES) {
      const batch = Array.from({ length: Math.min(BATCH, SHARES - named.size) }, () =>
        pick(existing, NAMED, next),
      );
      const ids = await Promise.all(
        batch.map((others) => create({ different_host: others.join(',') })),
      );
      ids.forEach((id, i) => named.set(id, batch[i] as string[]));
      existing.push(...ids);
    }
    const createdIn = Date.now() - started;

    const shares = await eventually(
      async () => {
        const listed = await listAll();
        const settled = listed.filter((s) => s.status === 'available');
        return settled.length === existing.length ? listed : undefined;
      },
      120_000,
      'every share to be available',
      500,
    );
    const byId = new Map(shares.map((share) => [share.id, share]));
    const hostOf = (id: string) => byId.get(id)?.host ?? '';
    const hosts = new Set(shares.map((share) => share.host));
    expect(hosts.size).toBe(4);

    let violations = 0;
    let onlyPoolLeft = 0;
    for (const [id, others] of named) {
      const share = byId.get(id) as ListedShare;
      // The read model records the share's own hints...
      expect(share.metadata[DIFFERENT]?.split(',').slice(0, NAMED)).toEqual(others);
      // ...and its pool is none of theirs.
      const forbidden = new Set(others.map(hostOf));
      if (forbidden.has(share.host)) violations += 1;
      if (forbidden.size === hosts.size - 1) onlyPoolLeft += 1;
    }
    expect(violations).toBe(0);
    // The hints did bind: many requests had a single pool left to them.
    expect(onlyPoolLeft).toBeGreaterThan(SHARES / 10);

    // Every named share lists, after its own hints, each share that named it.
    const namedBy = new Map<string, Set<string>>();
    for (const [id, others] of named) {
      for (const other of others) namedBy.set(other, (namedBy.get(other) ?? new Set()).add(id));
    }
    const linked = await eventually(
      async () => {
        const listed = await listAll();
        const complete = listed.every((share) => {
          const wanted = namedBy.get(share.id);
          const listedIds = new Set(share.metadata[DIFFERENT]?.split(',') ?? []);
          return !wanted || [...wanted].every((id) => listedIds.has(id));
        });
        return complete ? listed : undefined;
      },
      60_000,
      'the symmetric links on every named share',
      500,
    );
    expect(linked).toHaveLength(SHARES + NAMED);
    console.info(
      `${SHARES} hinted shares created in ${createdIn} ms, all placed and linked in ${Date.now() - started} ms; ${onlyPoolLeft} had one pool left`,
    );
  }, 240_000);
});
