import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crashedService } from './test-support/crashed-service.js';
import { HawserProcess } from './test-support/hawser-process.js';
import { eventually } from './test-support/hawser-test-server.js';
import {
  createReadableType,
  requestReadableShare,
  type ManilaCall,
} from './test-support/replicated-share.js';
import { journalledSimulatedBackends } from './test-support/simulated-backends.js';

const PROJECT = '88888888888888888888888888888888';
const TOKEN = `admin:${PROJECT}`;
/** Small, so a reservation left by a crash expires within the spec; a setting, never a sleep. */
const EXPIRE_S = '2';

interface Listed {
  shares: { id: string; size: number; status: string }[];
  snapshots: { id: string; size: number; status: string }[];
  replicas: { id: string; share_id: string; status: string }[];
}

const FINAL = ['available', 'error'];

/** What the quota counts, and what it should count: exactly what the project has. */
const accounts = async (call: ManilaCall) => {
  const listed: Listed = {
    shares: (await call('GET', '/v2/shares/detail')).body.shares,
    snapshots: (await call('GET', '/v2/snapshots/detail')).body.snapshots,
    replicas: (await call('GET', '/v2/share-replicas/detail')).body.share_replicas,
  };
  const sizeOf = new Map(listed.shares.map((s) => [s.id, s.size]));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const exists = {
    shares: listed.shares.length,
    gigabytes: sum(listed.shares.map((s) => s.size)),
    snapshots: listed.snapshots.length,
    snapshot_gigabytes: sum(listed.snapshots.map((s) => s.size)),
    share_replicas: listed.replicas.length,
    replica_gigabytes: sum(listed.replicas.map((r) => sizeOf.get(r.share_id) ?? 0)),
  };
  const quota = (await call('GET', `/v2/quota-sets/${PROJECT}/detail`)).body.quota_set;
  const counted = Object.fromEntries(
    Object.keys(exists).map((resource) => [resource, quota[resource].in_use as number]),
  );
  const ended = [...listed.shares, ...listed.snapshots, ...listed.replicas].every((r) =>
    FINAL.includes(r.status),
  );
  return { listed, exists, counted, ended };
};

type Accounts = Awaited<ReturnType<typeof accounts>>;

interface Scenario {
  /** Where the service kills itself. */
  readonly point: string;
  readonly request: () => Promise<unknown>;
  /** What must hold once the restarted service has settled, beyond counted = exists. */
  readonly then: (before: Accounts, after: Accounts) => void;
}

/**
 * Each step of a request that reserves quota, killed where the process dies in it: right after
 * the reservation (the request never recorded) or right after the request was recorded (never
 * answered), for a share, a snapshot, a replica, an extend and a share from a snapshot; and the
 * expiry itself killed between its fence and its release. After each kill the service restarts
 * on the same data: the quota must count exactly what exists, every accepted request must have
 * ended, and a request never recorded must have left nothing. Each restart is armed for the next
 * scenario's point, so every scenario costs one start.
 */
describe('crashes between a quota reservation and its request (all-in-one service, SIGKILL)', () => {
  let dir: string;
  let env: Record<string, string>;
  let call: ManilaCall;
  let shareId: string;
  let snapshotId: string;
  let service: HawserProcess | undefined;

  const start = async (killAt?: string) => {
    service = new HawserProcess({
      ...env,
      HAWSER_RESERVATION_EXPIRE_S: EXPIRE_S,
      ...(killAt !== undefined && { HAWSER_FAULT_INJECTION_KILL_AT: killAt }),
    });
    await service.start();
    return service;
  };
  /** Once the restarted service has settled: counted equals what exists, and all has ended. */
  const settled = async (): Promise<Accounts> => {
    let last: Accounts | undefined;
    await eventually(
      async () => {
        last = await accounts(call);
        return last.ended && JSON.stringify(last.counted) === JSON.stringify(last.exists)
          ? true
          : undefined;
      },
      30_000,
      'the quota to count what exists',
      100,
    ).catch(() => undefined);
    expect(last?.counted).toEqual(last?.exists);
    expect(last?.ended).toBe(true);
    return last!;
  };

  const shareSize = (accounts: Accounts) =>
    accounts.listed.shares.find((s) => s.id === shareId)!.size;
  const unchanged = (before: Accounts, after: Accounts) => {
    expect(after.exists).toEqual(before.exists);
    expect(shareSize(after)).toBe(shareSize(before));
  };
  const oneMore =
    (resource: 'shares' | 'snapshots' | 'share_replicas') => (before: Accounts, after: Accounts) =>
      expect(after.exists[resource]).toBe(before.exists[resource] + 1);

  const requests = {
    share: () =>
      call('POST', '/v2/shares', {
        share: { share_proto: 'NFS', size: 1, share_type: 'readable', availability_zone: 'az-1' },
      }),
    shareFromSnapshot: () =>
      call('POST', '/v2/shares', { share: { share_proto: 'NFS', snapshot_id: snapshotId } }),
    snapshot: () => call('POST', '/v2/snapshots', { snapshot: { share_id: shareId } }),
    replica: () =>
      call('POST', '/v2/share-replicas', {
        share_replica: { share_id: shareId, availability_zone: 'az-2' },
      }),
    extend: async () => {
      const size = (await call('GET', `/v2/shares/${shareId}`)).body.share.size as number;
      return call('POST', `/v2/shares/${shareId}/action`, { extend: { new_size: size + 1 } });
    },
  };

  const scenarios: ReadonlyArray<readonly [string, Scenario]> = [
    [
      'a share killed right after its reservation',
      { point: 'after-quota-reserved:share', request: requests.share, then: unchanged },
    ],
    [
      'a snapshot killed right after its reservation',
      { point: 'after-quota-reserved:snapshot', request: requests.snapshot, then: unchanged },
    ],
    [
      'a replica killed right after its reservation',
      { point: 'after-quota-reserved:share_replica', request: requests.replica, then: unchanged },
    ],
    [
      'an extend killed right after its reservation',
      { point: 'after-quota-reserved:extend', request: requests.extend, then: unchanged },
    ],
    [
      'a share killed right after its request was recorded',
      { point: 'after-request-recorded:share', request: requests.share, then: oneMore('shares') },
    ],
    [
      'a snapshot killed right after its request was recorded',
      {
        point: 'after-request-recorded:snapshot',
        request: requests.snapshot,
        then: (before, after) => {
          oneMore('snapshots')(before, after);
          snapshotId = after.listed.snapshots[0]!.id;
        },
      },
    ],
    [
      'a replica killed right after its request was recorded',
      {
        point: 'after-request-recorded:share_replica',
        request: requests.replica,
        then: oneMore('share_replicas'),
      },
    ],
    [
      'an extend killed right after its request was recorded',
      {
        point: 'after-request-recorded:extend',
        request: requests.extend,
        then: (before, after) => {
          expect(shareSize(after)).toBe(shareSize(before) + 1);
          expect(after.exists.gigabytes).toBe(before.exists.gigabytes + 1);
        },
      },
    ],
    [
      'a share from the snapshot killed right after its reservation',
      {
        point: 'after-quota-reserved:share',
        request: requests.shareFromSnapshot,
        then: unchanged,
      },
    ],
    [
      'a share from the snapshot killed right after its request was recorded',
      {
        point: 'after-request-recorded:share',
        request: requests.shareFromSnapshot,
        then: oneMore('shares'),
      },
    ],
  ];
  /** The last spec's first point: a replica's reservation the expiry will then fence. */
  const LEFTOVER_POINT = 'after-quota-reserved:share_replica';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-quota-crash-'));
    journalledSimulatedBackends(dir);
    ({ env, call } = await crashedService(dir, TOKEN));
    await start();
    await createReadableType(call, { create_share_from_snapshot_support: 'true' });
    shareId = await requestReadableShare(call);
    await settled();
    await service!.stop();
    await start(scenarios[0]![1].point);
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Sends the request to the armed service, sees it die, and restarts it armed for `next`. */
  const killedBy = async (request: () => Promise<unknown>, next: string | undefined) => {
    const doomed = service!;
    await request().catch(() => undefined); // the answer never comes: the process is gone
    expect(await doomed.exited()).toBe('SIGKILL');
    await start(next);
  };

  it.each(scenarios.map(([title], index) => [title, index] as const))(
    'given %s, when the service restarts, then the quota counts exactly what exists and every accepted request ended',
    async (_, index) => {
      const [, scenario] = scenarios[index]!;
      const before = await accounts(call);
      await killedBy(scenario.request, scenarios[index + 1]?.[1].point ?? LEFTOVER_POINT);
      scenario.then(before, await settled());
    },
    90_000,
  );

  it('given the expiry killed between fencing a leftover reservation and releasing it, when the service restarts, then the reservation is released once', async () => {
    const before = await accounts(call);
    const doomed = service!;
    await requests.replica().catch(() => undefined);
    expect(await doomed.exited()).toBe('SIGKILL');
    // This run's expiry fences the replica's leftover reservation, then dies before releasing:
    // at its first pass, which runs before the service listens when the restart took longer
    // than the expiry bound (a loaded machine), or shortly after.
    await start('after-reservation-fenced').catch((error: Error) => {
      if (!error.message.startsWith('exited (SIGKILL) before listening')) throw error;
    });
    expect(await service!.exited()).toBe('SIGKILL');
    await start();
    unchanged(before, await settled());
    const quota = (await call('GET', `/hawser/v1/streams/quota-${PROJECT}?limit=1000`)).body
      .events as { type: string; data: { holderKind?: string; holderId: string } }[];
    const leftover = quota.filter(
      (e) => e.type === 'QuotaReserved' && e.data.holderKind === 'share_replica',
    );
    const { holderId } = leftover[leftover.length - 1]!.data;
    const releases = quota.filter(
      (e) => e.type === 'QuotaReleased' && e.data.holderId === holderId,
    );
    expect(releases).toHaveLength(1);
  }, 90_000);
});
