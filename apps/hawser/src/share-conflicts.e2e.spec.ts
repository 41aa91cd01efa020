import {
  eventually,
  startHawser,
  type ApiResponse,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import {
  driverSizes,
  messagesAbout,
  readShareWorld,
  settledShareWorld,
  usageOf,
  type ShareWorld,
} from './test-support/share-world.js';
import { createReadableType } from './test-support/replicated-share.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

/** One share of its own project, with what the two actions of a pair act on. */
interface Fixture {
  readonly projectId: string;
  readonly token: string;
  readonly shareId: string;
  readonly instanceIds: readonly string[];
  /** The instances before the pair ran, with their pools. */
  readonly instances: readonly { id: string; host: string }[];
  readonly replicaId?: string;
  readonly snapshotId?: string;
  readonly ruleId?: string;
}

type Need = 'replica' | 'snapshot' | 'rule';

interface Action {
  readonly needs?: readonly Need[];
  readonly fire: (f: Fixture) => [method: string, route: string, body: unknown, admin?: boolean];
  /**
   * The action's effect shows in the settled share, or in its history where the other action of
   * the pair, accepted after this one had finished, overwrote it.
   */
  readonly done: (w: ShareWorld, f: Fixture, history: readonly string[]) => boolean;
  /** The action's own mark is absent (what a refused request must not have left). */
  readonly absent: (w: ShareWorld, f: Fixture) => boolean;
}

const RULE_TO = '10.9.9.9';
const NEW_NAME = 'renamed-in-race';
const SNAPSHOT_NAME = 'taken-in-race';
const ERROR_STATUSES = new Set(['error', 'extending_error', 'shrinking_error', 'error_deleting']);

const gone = (w: ShareWorld) => w.share === null;
const replicaOf = (w: ShareWorld, f: Fixture) => w.instances.find((i) => i.id === f.replicaId);
const shareAction =
  (body: unknown, admin = false) =>
  (f: Fixture) =>
    ['POST', `/v2/shares/${f.shareId}/action`, body, admin] as [string, string, unknown, boolean];
const replicaAction =
  (body: unknown, admin = false) =>
  (f: Fixture) =>
    ['POST', `/v2/share-replicas/${f.replicaId}/action`, body, admin] as [
      string,
      string,
      unknown,
      boolean,
    ];

/**
 * Two resizes on the log: the share takes one only when it is not resizing, so the first had
 * finished when the second was asked for, and the second's size overwrote the first's.
 */
const bothResized = (history: readonly string[]) =>
  history.filter((type) => type === 'ShareResizeRequested').length >= 2;

/** Every action a client can take on one share; shares start at 2 GiB. */
const ACTIONS: Record<string, Action> = {
  extend: {
    fire: shareAction({ extend: { new_size: 3 } }),
    done: (w, _f, history) => gone(w) || w.share?.size === 3 || bothResized(history),
    absent: (w) => w.share?.size !== 3,
  },
  shrink: {
    fire: shareAction({ shrink: { new_size: 1 } }),
    done: (w, _f, history) => gone(w) || w.share?.size === 1 || bothResized(history),
    absent: (w) => w.share?.size !== 1,
  },
  delete: {
    fire: (f) => ['DELETE', `/v2/shares/${f.shareId}`, undefined],
    done: gone,
    absent: (w) => !gone(w),
  },
  force_delete: {
    fire: shareAction({ force_delete: null }, true),
    done: gone,
    absent: (w) => !gone(w),
  },
  snapshot_create: {
    fire: (f) => [
      'POST',
      '/v2/snapshots',
      { snapshot: { share_id: f.shareId, name: SNAPSHOT_NAME } },
    ],
    done: (w) => gone(w) || w.snapshots.some((s) => s.name === SNAPSHOT_NAME),
    absent: (w) => !w.snapshots.some((s) => s.name === SNAPSHOT_NAME),
  },
  snapshot_delete: {
    needs: ['snapshot'],
    fire: (f) => ['DELETE', `/v2/snapshots/${f.snapshotId}`, undefined],
    done: (w, f) => !w.snapshots.some((s) => s.id === f.snapshotId),
    absent: (w, f) => gone(w) || w.snapshots.some((s) => s.id === f.snapshotId),
  },
  replica_create: {
    fire: (f) => [
      'POST',
      '/v2/share-replicas',
      { share_replica: { share_id: f.shareId, availability_zone: 'az-2' } },
    ],
    done: (w, f) => gone(w) || w.instances.some((i) => !f.instanceIds.includes(i.id)),
    absent: (w, f) => w.instances.every((i) => f.instanceIds.includes(i.id)),
  },
  replica_delete: {
    needs: ['replica'],
    fire: (f) => ['DELETE', `/v2/share-replicas/${f.replicaId}`, undefined],
    done: (w, f) => !replicaOf(w, f),
    absent: (w, f) => gone(w) || replicaOf(w, f) !== undefined,
  },
  promote: {
    needs: ['replica'],
    fire: replicaAction({ promote: null }),
    done: (w, f) => gone(w) || replicaOf(w, f)?.replica_state === 'active',
    absent: (w, f) => replicaOf(w, f)?.replica_state !== 'active',
  },
  resync: {
    needs: ['replica'],
    fire: replicaAction({ resync: null }, true),
    // Nothing to see but a refreshed replica_state: the replica is settled or was deleted.
    done: () => true,
    absent: () => true,
  },
  allow_access: {
    fire: shareAction({
      allow_access: { access_type: 'ip', access_to: RULE_TO, access_level: 'rw' },
    }),
    done: (w) => gone(w) || w.rules.some((r) => r.access_to === RULE_TO),
    absent: (w) => !w.rules.some((r) => r.access_to === RULE_TO),
  },
  deny_access: {
    needs: ['rule'],
    fire: (f) => shareAction({ deny_access: { access_id: f.ruleId } })(f),
    done: (w, f) => !w.rules.some((r) => r.id === f.ruleId),
    absent: (w, f) => gone(w) || w.rules.some((r) => r.id === f.ruleId),
  },
  reset_status: {
    // An administrator's override: it may end what it interrupts (README, replication).
    fire: shareAction({ reset_status: { status: 'available' } }, true),
    done: () => true,
    absent: () => true,
  },
  update: {
    fire: (f) => ['PUT', `/v2/shares/${f.shareId}`, { share: { display_name: NEW_NAME } }],
    done: (w) => gone(w) || w.share?.name === NEW_NAME,
    absent: (w) => w.share?.name !== NEW_NAME,
  },
};

/**
 * An admin's reset_status is an override: it withdraws what it finds requested but not yet
 * started on the back end (README, replication), leaving the share consistent.
 */
const WITHDRAWN_BY_RESET = new Set(['extend', 'shrink', 'delete', 'force_delete', 'promote']);

const NAMES = Object.keys(ACTIONS);
/** Every two different actions, each pair fired in both orders. */
const PAIRS: [string, string][] = NAMES.flatMap((a, i) =>
  NAMES.slice(i + 1).flatMap((b) => [
    [a, b],
    [b, a],
  ]),
) as [string, string][];
/** Pairs run at once on their own shares; the rest wait for a free slot. */
const PARALLEL = 96;

/*
 * Two conflicting actions on one share at once, over HTTP, for every two actions a client can
 * take: each accepted request takes effect (or ends in an error state with a user message), a
 * refused one leaves no trace of itself, the share's size is every instance's size on the back
 * end, and the project's quota counts exactly what exists.
 */
describe('conflicting actions on one share, fired at once', () => {
  let hawser: HawserTestServer;
  let projects = 0;

  beforeAll(async () => {
    // The operations that hold a share in a transitional status the longest are slowed down,
    // so the second request of a pair often meets the first one still running.
    hawser = await startHawser({
      backends: () =>
        simulatedBackends({
          operationLatencyMs: { promoteReplica: 200, extendShare: 50, createReplica: 50 },
        }),
      env: { HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1' },
    });
    await createReadableType((method, route, body) => hawser.request(method, route, body));
  });
  afterAll(() => hawser.close());

  const send = (f: Fixture, [method, route, body, admin]: ReturnType<Action['fire']>) =>
    hawser.request(method, route, body, admin ? {} : { token: f.token });

  const waitFor = async (what: string, read: () => Promise<boolean>) =>
    eventually(async () => ((await read()) ? true : undefined), 60_000, what, 150);

  const fixtureFor = async (needs: ReadonlySet<Need>): Promise<Fixture> => {
    projects += 1;
    const projectId = projects.toString(16).padStart(32, 'c');
    const token = `racer:${projectId}:member,reader`;
    const call = (method: string, route: string, body?: unknown) =>
      hawser.request(method, route, body, { token });
    const created = await call('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 2, share_type: 'readable', availability_zone: 'az-1' },
    });
    expect(created.status).toBe(200);
    const shareId = created.body.share.id as string;
    await waitFor('the share to be available', async () => {
      return (await call('GET', `/v2/shares/${shareId}`)).body.share?.status === 'available';
    });
    let fixture: Fixture = { projectId, token, shareId, instanceIds: [], instances: [] };
    if (needs.has('replica')) {
      const added = await call('POST', '/v2/share-replicas', {
        share_replica: { share_id: shareId, availability_zone: 'az-2' },
      });
      expect(added.status).toBe(202);
      const replicaId = added.body.share_replica.id as string;
      let last = 'unread';
      await waitFor(`the replica to be in_sync (${shareId})`, async () => {
        const shown = (await call('GET', `/v2/share-replicas/${replicaId}`)).body.share_replica;
        last = `${shown?.status}/${shown?.replica_state}`;
        return shown?.status === 'available' && shown.replica_state === 'in_sync';
      }).catch((error: unknown) => {
        throw new Error(`${String(error)}: replica ${replicaId} is ${last}`);
      });
      fixture = { ...fixture, replicaId };
    }
    if (needs.has('snapshot')) {
      const taken = await call('POST', '/v2/snapshots', { snapshot: { share_id: shareId } });
      expect(taken.status).toBe(202);
      const snapshotId = taken.body.snapshot.id as string;
      await waitFor('the snapshot to be available', async () => {
        return (
          (await call('GET', `/v2/snapshots/${snapshotId}`)).body.snapshot?.status === 'available'
        );
      });
      fixture = { ...fixture, snapshotId };
    }
    if (needs.has('rule')) {
      const allowed = await call('POST', `/v2/shares/${shareId}/action`, {
        allow_access: { access_type: 'ip', access_to: '10.1.1.1', access_level: 'ro' },
      });
      expect(allowed.status).toBe(200);
      const ruleId = allowed.body.access.id as string;
      await waitFor('the rule to be active', async () => {
        return (
          (await call('GET', `/v2/share-access-rules/${ruleId}`)).body.access?.state === 'active'
        );
      });
      fixture = { ...fixture, ruleId };
    }
    const instances = (await hawser.request('GET', `/v2/shares/${shareId}/instances`)).body
      .share_instances as { id: string; host: string }[];
    return { ...fixture, instanceIds: instances.map((i) => i.id), instances };
  };

  /** Runs one pair; answers what went wrong with it (nothing when all holds). */
  const isDeletion = (name: string) => name === 'delete' || name === 'force_delete';
  /** The types of the events on the share's stream, oldest first. */
  const historyOf = async (shareId: string): Promise<string[]> => {
    const stream = `/hawser/v1/streams/share-${shareId}?limit=1000`;
    const events = (await hawser.request('GET', stream)).body.events as { type: string }[];
    return events.map((e) => e.type);
  };
  const runPair = async ([first, second]: [string, string]): Promise<string[]> => {
    const actions = [ACTIONS[first], ACTIONS[second]] as [Action, Action];
    const needs = new Set(actions.flatMap((a) => a.needs ?? []));
    const fixture = await fixtureFor(needs);
    const answers: ApiResponse[] = await Promise.all(
      actions.map((a) => send(fixture, a.fire(fixture))),
    );
    const label = `${first} + ${second}`;
    const world = await settledShareWorld(
      hawser,
      fixture.shareId,
      fixture.projectId,
      fixture.token,
    ).catch(() => undefined);
    if (!world) {
      const last = await readShareWorld(hawser, fixture.shareId, fixture.projectId, fixture.token);
      const statuses = [last.share?.status, ...last.instances.map((i) => i.status)];
      return [`${label}: the share never settled (${statuses.join(', ')})`];
    }
    const problems: string[] = [];
    const history = await historyOf(fixture.shareId);
    const resetAccepted = [first, second].some(
      (name, i) => name === 'reset_status' && (answers[i] as ApiResponse).status < 300,
    );
    for (const [i, name] of [first, second].entries()) {
      const action = actions[i] as Action;
      const { status, body } = answers[i] as ApiResponse;
      if (status >= 500 || status < 200 || (status >= 300 && status < 400)) {
        problems.push(`${label}: ${name} answered ${status} ${JSON.stringify(body)}`);
      } else if (status < 300) {
        const inError =
          world.instances.some((x) => ERROR_STATUSES.has(x.status)) ||
          world.snapshots.some((s) => ERROR_STATUSES.has(s.status)) ||
          world.rules.some((r) => r.state === 'error');
        const withdrawn = resetAccepted && name !== 'reset_status' && WITHDRAWN_BY_RESET.has(name);
        if (
          !action.done(world, fixture, history) &&
          !withdrawn &&
          !(inError && (await messagesAbout(hawser, fixture.shareId, world)) > 0)
        ) {
          problems.push(`${label}: ${name} was accepted (${status}) but never took effect`);
        }
      } else if (status === 404 && gone(world) && [first, second].some(isDeletion)) {
        // The other request deleted the share first: a 404 is the right answer to this one.
      } else if (!action.absent(world, fixture)) {
        problems.push(`${label}: ${name} was refused (${status}) but took effect`);
      }
    }
    if (world.share) {
      const sizes = driverSizes(hawser, world.instances);
      for (const instance of world.instances) {
        const onDriver = sizes[instance.id];
        if (instance.status === 'available' && onDriver !== world.share.size) {
          problems.push(
            `${label}: share is ${world.share.size} GiB, instance ${instance.id} ${String(onDriver)} GiB`,
          );
        }
      }
    } else {
      const leftovers = Object.values(driverSizes(hawser, fixture.instances)).filter(
        (size) => size !== null,
      );
      if (leftovers.length > 0) problems.push(`${label}: deleted share left ${leftovers.length}`);
    }
    const expected = usageOf(world);
    // The quota process managers follow the log: wait for them, bounded, before comparing.
    const usage = await eventually(
      async () => {
        const quota = await hawser.request('GET', `/v2/quota-sets/${fixture.projectId}/detail`);
        const set = quota.body.quota_set as Record<string, { in_use: number }>;
        const now = Object.fromEntries(Object.keys(expected).map((k) => [k, set[k]?.in_use]));
        return JSON.stringify(now) === JSON.stringify(expected) ? now : undefined;
      },
      10_000,
      'quota usage to match',
      200,
    ).catch(() => world.usage);
    if (JSON.stringify(usage) !== JSON.stringify(expected)) {
      problems.push(
        `${label}: quota ${JSON.stringify(usage)}, existing ${JSON.stringify(expected)}`,
      );
    }
    if (problems.length > 0) {
      // What the share's stream holds, to read the failure from the report.
      problems.push(`${label}: events ${(await historyOf(fixture.shareId)).join(', ')}`);
    }
    return problems;
  };

  it(`given ${PAIRS.length} pairs of actions, each on its own share, when both are sent at once, then none is lost and nothing diverges`, async () => {
    const queue = [...PAIRS];
    const problems: string[] = [];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let pair = queue.shift(); pair; pair = queue.shift()) {
          problems.push(...(await runPair(pair)));
        }
      }),
    );
    expect(problems).toEqual([]);
  }, 600_000);
});
