import path from 'node:path';
import type { CommandHandler } from '#hawser/application';
import {
  capabilitiesOf,
  derivedId,
  shareDecider,
  shareStream,
  snapshotAggregateStatus,
  snapshotInstanceIdOf,
  type ShareCommand,
  type ShareDriverOperationStarted,
  type ActiveShare,
  activeShareOf,
} from '#hawser/domain';
import type { SimulatedShareDriver } from '#hawser/drivers';
import { OperationJournal } from '#hawser/drivers';
import type { SqliteEventStore } from '#hawser/eventstore';
import type { ProcessManager } from '#hawser/process-managers';
import { replicaNodeOperationsProcessManager } from './replica-node-operations.process-manager.js';
import type { ShareDriverOperations } from './share-driver-operations.js';
import { shareNodeOperationsProcessManager } from './share-node-operations.process-manager.js';
import { simulatedBackend, simulatedNode } from './test-support/simulated-node.js';
import {
  placementOn,
  snapshotRequest,
} from '../../../domain/src/share/test-support/share-history.js';
import {
  openSqliteLog,
  shareRequest,
  type SqliteLog,
} from '../../../process-managers/src/test-support/sqlite-log.js';

const ACTIVE_HOST = 'sim@a#fast';
const REPLICA_HOST = 'sim@b#fast';
const now = () => '2026-11-23T10:00:00.000Z';
const specs = {
  driver_handles_share_servers: 'False',
  snapshot_support: 'True',
  replication_type: 'readable',
};
const ON_ACTIVE = snapshotInstanceIdOf('snap1', 'i1');
const ON_REPLICA = snapshotInstanceIdOf('snap1', 'r1');

/**
 * Two share nodes, each with one simulated back end of one replication domain, against a real
 * SQLite log: a snapshot of a share with an in_sync replica is created and deleted by the node
 * of the active replica in one driver call (reference 5.8), and the replica's node finishes its
 * instance with its periodic refresh (update_replicated_snapshot, reference 5.7).
 */
describe('snapshots of a share with replicas, on two share nodes', () => {
  let log: SqliteLog;
  let events: SqliteEventStore;
  let commands: CommandHandler;
  let drivers: { a: SimulatedShareDriver; b: SimulatedShareDriver };
  const nodes = {} as { a: ShareDriverOperations; b: ShareDriverOperations };
  let managers: ProcessManager[];
  let checkpoint = 0;
  let counter = 0;

  const run = (command: ShareCommand) =>
    commands.handle(shareDecider, shareStream('s1'), command, {
      commandId: `cmd-${(counter += 1)}`,
    });
  const state = async (): Promise<ActiveShare> =>
    activeShareOf((await commands.load(shareDecider, shareStream('s1'))).state);
  /** Hands the share's new events to both nodes' process managers, as their runners would. */
  const react = async (): Promise<void> => {
    for (;;) {
      const fresh = (await events.readStream('share-s1')).filter((e) => e.revision >= checkpoint);
      if (fresh.length === 0) return;
      for (const event of fresh) {
        for (const manager of managers) {
          if (manager.filter?.eventTypes?.includes(event.type)) await manager.handle(event);
        }
        checkpoint = event.revision + 1;
      }
    }
  };
  /** One round of the periodic replica refresh on the replica's node. */
  const refreshReplica = async (round: string) => {
    const current = await state();
    const replica = current.instances.find((i) => i.id === 'r1');
    if (replica) await nodes.b.replicatedSnapshots.refresh(current, replica, round);
    await react();
  };
  const snapshot = async () => {
    const current = await state();
    const found = current.snapshots.find((s) => s.id === 'snap1');
    return (
      found && {
        status: snapshotAggregateStatus(
          found,
          (id) => current.instances.find((i) => i.id === id)?.replicaState,
        ),
        instances: Object.fromEntries(found.instances.map((i) => [i.id, i.status])),
      }
    );
  };
  const history = () => events.readStream('share-s1');
  const requestSnapshot = () => run(snapshotRequest(now()));

  const backend = (name: string, zone: string) =>
    simulatedBackend(name, zone, ['fast'], {
      replicationDomain: 'sim-domain',
      options: { journalFile: path.join(log.dir, `journal-${name}.jsonl`) },
    });

  beforeEach(async () => {
    log = openSqliteLog('hawser-replicated-snapshots-');
    ({ events, commands } = log);
    drivers = { a: backend('sim@a', 'az-1'), b: backend('sim@b', 'az-2') };
    managers = [];
    for (const name of ['a', 'b'] as const) {
      const { operations, admission } = await simulatedNode(
        commands,
        `sim@${name}`,
        drivers[name],
        now,
      );
      nodes[name] = operations;
      managers.push(shareNodeOperationsProcessManager(name, operations, admission));
      managers.push(replicaNodeOperationsProcessManager(name, operations, admission));
    }
    checkpoint = 0;
    await run(
      shareRequest('s1', now(), {
        instanceId: 'i1',
        shareType: { id: 't1', name: 'readable', extraSpecs: specs },
        capabilities: capabilitiesOf(specs),
        availabilityZone: 'az-1',
      }),
    );
    await run(placementOn('i1', ACTIVE_HOST, 'az-1', now()));
    await react();
    await run({ type: 'RequestReplica', replicaId: 'r1', availabilityZone: 'az-2', now: now() });
    await run({
      type: 'ScheduleReplica',
      replicaId: 'r1',
      host: REPLICA_HOST,
      availabilityZone: 'az-2',
      now: now(),
    });
    await react();
    const replicas = (await state()).instances.map((i) => [i.id, i.status, i.replicaState]);
    expect(replicas).toEqual([
      ['i1', 'available', 'active'],
      ['r1', 'available', 'in_sync'],
    ]);
  });
  afterEach(async () => {
    await drivers.a.close();
    await drivers.b.close();
    await log.close();
  });

  it('given an in_sync replica, when a snapshot is taken, then it is creating until the replica’s refresh makes its instance available', async () => {
    await requestSnapshot();
    await react();
    expect(await snapshot()).toEqual({
      status: 'creating',
      instances: { [ON_ACTIVE]: 'available', [ON_REPLICA]: 'creating' },
    });
    // One claim, on the active replica; the replica's node claimed nothing.
    const claims = (await history())
      .filter((e) => e.type === 'ShareDriverOperationStarted')
      .map((e) => e.data as ShareDriverOperationStarted['data'])
      .map((d) => [d.instanceId, d.operation]);
    expect(claims).toEqual([
      ['i1', 'create_share'],
      ['r1', 'create_replica'],
      ['i1', 'create_replicated_snapshot'],
    ]);
    expect(drivers.a.hasSnapshot(ON_ACTIVE)).toBe(true);
    expect(drivers.b.hasSnapshot(ON_REPLICA)).toBe(false);

    await refreshReplica('round-1');
    expect(await snapshot()).toEqual({
      status: 'available',
      instances: { [ON_ACTIVE]: 'available', [ON_REPLICA]: 'available' },
    });
    expect(drivers.b.hasSnapshot(ON_REPLICA)).toBe(true);
    const types = (await history()).map((e) => e.type);
    expect(types.filter((t) => t === 'ReplicaSnapshotRefreshed')).toHaveLength(1);
    expect(types).not.toContain('SnapshotInstanceCreated');

    // A later round finds nothing in transition and records nothing.
    const before = (await history()).length;
    await refreshReplica('round-2');
    expect((await history()).length).toBe(before);
  });

  it('when the snapshot is deleted, then the active node deletes its instance and the replica’s refresh the other, then the snapshot is gone', async () => {
    await requestSnapshot();
    await react();
    await refreshReplica('round-1');
    await run({ type: 'DeleteSnapshot', snapshotId: 'snap1', force: false, now: now() });
    await react();
    expect(await snapshot()).toEqual({
      status: 'deleting',
      instances: { [ON_REPLICA]: 'deleting' },
    });
    expect(drivers.a.hasSnapshot(ON_ACTIVE)).toBe(false);
    expect(drivers.b.hasSnapshot(ON_REPLICA)).toBe(true);

    await refreshReplica('round-2');
    expect(await snapshot()).toBeUndefined();
    expect(drivers.b.hasSnapshot(ON_REPLICA)).toBe(false);
    const types = (await history()).map((e) => e.type);
    expect(types.slice(-2)).toEqual(['SnapshotInstanceDeleted', 'SnapshotDeleted']);
    // Both instances gone from the back ends: the share's replicas can go, then the share.
    await run({ type: 'DeleteReplica', replicaId: 'r1', force: false, now: now() });
    await react();
    await run({ type: 'DeleteShare', force: false, now: now() });
    await react();
    expect((await commands.load(shareDecider, shareStream('s1'))).state.kind).toBe('deleted');
  });

  it('takes the snapshot once when its request is handled twice, and settles a claim a crash left open by running the call again', async () => {
    await requestSnapshot();
    const requested = (await history()).at(-1);
    // The node claimed the call, as its process manager does, and died before the driver answered.
    await run({
      type: 'StartDriverOperation',
      instanceId: 'i1',
      operation: 'create_replicated_snapshot',
      commandId: derivedId(requested?.id ?? '', 'create_replicated_snapshot'),
      host: ACTIVE_HOST,
      snapshotId: 'snap1',
      snapshotInstanceId: ON_ACTIVE,
      now: now(),
    });
    checkpoint = (await history()).length;
    // The process manager replays the request: the open claim makes it claim nothing more.
    if (requested) for (const manager of managers) await manager.handle(requested);
    await nodes.a.recover('s1', 'i1');
    await nodes.a.recover('s1', 'i1');
    await react();
    const types = (await history()).map((e) => e.type);
    expect(types.filter((t) => t === 'ShareDriverOperationStarted')).toHaveLength(3);
    expect(types.filter((t) => t === 'ReplicatedSnapshotCreated')).toHaveLength(1);
    // The driver ran the call once: the replayed request and the second recovery called nothing.
    const calls = OperationJournal.read(path.join(log.dir, 'journal-sim@a.jsonl')).filter(
      (entry) => entry.operation === 'createReplicatedSnapshot',
    );
    expect(calls.map((entry) => entry.outcome)).toEqual(['ok']);
    expect((await state()).instances[0]?.pendingOperation).toBeNull();
    expect((await snapshot())?.instances[ON_ACTIVE]).toBe('available');
  });

  it('settles a deletion claim a crash left open by running the call again, once', async () => {
    await requestSnapshot();
    await react();
    await refreshReplica('round-1');
    await run({ type: 'DeleteSnapshot', snapshotId: 'snap1', force: false, now: now() });
    const requested = (await history()).at(-1);
    await run({
      type: 'StartDriverOperation',
      instanceId: 'i1',
      operation: 'delete_replicated_snapshot',
      commandId: derivedId(requested?.id ?? '', 'delete_replicated_snapshot'),
      host: ACTIVE_HOST,
      snapshotId: 'snap1',
      snapshotInstanceId: ON_ACTIVE,
      now: now(),
    });
    checkpoint = (await history()).length;
    await nodes.a.recover('s1', 'i1');
    if (requested) for (const manager of managers) await manager.handle(requested);
    await react();
    const types = (await history()).map((e) => e.type);
    expect(types.filter((t) => t === 'ReplicatedSnapshotInstancesDeleted')).toHaveLength(1);
    expect(drivers.a.hasSnapshot(ON_ACTIVE)).toBe(false);
    await refreshReplica('round-2');
    expect(await snapshot()).toBeUndefined();
    const calls = OperationJournal.read(path.join(log.dir, 'journal-sim@a.jsonl')).filter(
      (entry) => entry.operation === 'deleteReplicatedSnapshot',
    );
    expect(calls.map((entry) => entry.outcome)).toEqual(['ok']);
  });

  it('records a driver failure as every instance in error', async () => {
    drivers.a.injectFailure({
      operation: 'createReplicatedSnapshot',
      nthCall: 1,
      userMessage: 'disk full',
    });
    await requestSnapshot();
    await react();
    expect(await snapshot()).toEqual({
      status: 'error',
      instances: { [ON_ACTIVE]: 'error', [ON_REPLICA]: 'error' },
    });
    // The refresh leaves instances that are not in transition alone.
    await refreshReplica('round-1');
    expect((await snapshot())?.instances[ON_REPLICA]).toBe('error');
  });

  it('a replica added to a share with a snapshot gets its instance through create_replica, and one taken while it is built through the refresh', async () => {
    await requestSnapshot();
    await react();
    await refreshReplica('round-1');
    await run({ type: 'RequestReplica', replicaId: 'r2', availabilityZone: 'az-2', now: now() });
    await run({
      type: 'RequestSnapshot',
      snapshotId: 'snap2',
      projectId: 'p1',
      userId: 'u1',
      name: null,
      description: null,
      now: now(),
    });
    await run({
      type: 'ScheduleReplica',
      replicaId: 'r2',
      host: REPLICA_HOST,
      availabilityZone: 'az-2',
      now: now(),
    });
    await react();
    const current = await state();
    const statusOn = (snapshotId: string, replicaId: string) =>
      current.snapshots
        .find((s) => s.id === snapshotId)
        ?.instances.find((i) => i.shareInstanceId === replicaId)?.status;
    // snap1 was available: create_replica copied it. snap2 was taken while r2 was being built:
    // the active node took it on the built replicas, and r2's node refreshed it once r2 was.
    expect(statusOn('snap1', 'r2')).toBe('available');
    expect(drivers.b.hasSnapshot(snapshotInstanceIdOf('snap1', 'r2'))).toBe(true);
    expect(statusOn('snap2', 'r2')).toBe('available');
    expect(drivers.b.hasSnapshot(snapshotInstanceIdOf('snap2', 'r2'))).toBe(true);
  });
});
