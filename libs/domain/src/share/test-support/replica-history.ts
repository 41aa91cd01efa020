import type { ShareEvent } from '../share.events.js';
import type { DriverOperation } from '../share.types.js';
import { snapshotInstanceIdOf } from '../share-snapshot.state.js';
import { availableShare, HOST, later, operationStarted } from './share-history.js';

/** Past events of a replicated share (its replicas and snapshots), for decider specs. */
export const R_HOST = 'node2@b2#p1';

/** Replica `replicaId` asked for in az-2, with an instance of each of `snapshotIds`. */
export const replicaRequested = (
  replicaId = 'r1',
  snapshotIds: readonly string[] = [],
): ShareEvent => ({
  type: 'ReplicaRequested',
  data: {
    replicaId,
    availabilityZone: 'az-2',
    snapshotInstances: snapshotIds.map((snapshotId) => ({
      snapshotId,
      snapshotInstanceId: snapshotInstanceIdOf(snapshotId, replicaId),
    })),
    quotaHolderId: replicaId,
    requestedAt: later,
  },
});

export const replicaScheduled = (replicaId = 'r1'): ShareEvent => ({
  type: 'ReplicaScheduled',
  data: { replicaId, host: R_HOST, availabilityZone: 'az-2', size: 2, scheduledAt: later },
});

/** A node's claim of `operation` on an instance: i1 is on node1, every replica on node2. */
export const claimedOn = (
  instanceId: string,
  operation: DriverOperation,
  commandId: string,
  snapshot?: { snapshotId: string; snapshotInstanceId: string },
): ShareEvent =>
  operationStarted(
    instanceId,
    instanceId === 'i1' ? HOST : R_HOST,
    operation,
    commandId,
    later,
    snapshot,
  );

export const replicaCreated = (
  replicaId = 'r1',
  replicaState: 'in_sync' | 'out_of_sync' | 'active' = 'in_sync',
): ShareEvent => ({
  type: 'ReplicaCreated',
  data: {
    replicaId,
    commandId: `c-create-${replicaId}`,
    replicaState,
    exportLocations: [],
    accessRulesStatus: 'active',
    snapshotInstanceIds: [],
    createdAt: later,
  },
});

/** An available share of `replicationType` with an available replica r1 on node2. */
export const withReplica = (
  replicationType = 'readable',
  replicaState: 'in_sync' | 'out_of_sync' | 'active' = 'in_sync',
): ShareEvent[] => [
  ...availableShare({ replication_type: replicationType }),
  replicaRequested(),
  replicaScheduled(),
  claimedOn('r1', 'create_replica', 'c-create-r1'),
  replicaCreated('r1', replicaState),
];

/** Snapshot `snapshotId` of the share (2 GiB, by u1 of p1) asked for on `instances`. */
export const snapshotRequested = (
  snapshotId: string,
  instances: readonly { id: string; shareInstanceId: string }[],
  more: { activeInstanceId?: string; createdAt?: string; size?: number } = {},
): Extract<ShareEvent, { type: 'SnapshotRequested' }> => ({
  type: 'SnapshotRequested',
  data: {
    snapshotId,
    projectId: 'p1',
    userId: 'u1',
    name: null,
    description: null,
    size: 2,
    instances: [...instances],
    createdAt: later,
    ...more,
  },
});

/** Snapshot `snapshotId` of size `size` taken at `at` on instance i1, available. */
export const snapshotTaken = (snapshotId: string, at: string, size = 2): ShareEvent[] => {
  const ref = { snapshotId, snapshotInstanceId: snapshotInstanceIdOf(snapshotId, 'i1') };
  return [
    snapshotRequested(snapshotId, [{ id: ref.snapshotInstanceId, shareInstanceId: 'i1' }], {
      createdAt: at,
      size,
    }),
    operationStarted('i1', HOST, 'create_snapshot', `c-${snapshotId}`, at, ref),
    {
      type: 'SnapshotInstanceCreated',
      data: {
        ...ref,
        commandId: `c-${snapshotId}`,
        status: 'available',
        progress: '100%',
        providerLocation: null,
        createdAt: at,
      },
    },
  ];
};
