import { fold } from '../../shared/decider.js';
import { shareDecider } from '../share.decide.js';
import { isActiveShare, type ActiveShare } from '../share.state.js';
import { capabilitiesOf } from '../../share-type/extra-specs.js';
import type { ShareCommand } from '../share.commands.js';
import type { ShareEvent } from '../share.events.js';
import type { DriverOperation } from '../share.types.js';

/** Past events of one share, for decider specs of what happens to an available share. */
export const now = '2026-11-22T10:00:00.000Z';
export const later = '2026-11-22T10:05:00.000Z';
export const HOST = 'node1@b1#p1';

export const shareRequested = (
  extraSpecs: Record<string, string> = {},
  more: Partial<Extract<ShareEvent, { type: 'ShareRequested' }>['data']> = {},
): ShareEvent => {
  const specs = { driver_handles_share_servers: 'False', snapshot_support: 'True', ...extraSpecs };
  return {
    type: 'ShareRequested',
    data: {
      shareId: 's1',
      instanceId: 'i1',
      projectId: 'p1',
      userId: 'u1',
      name: 'share-a',
      description: null,
      size: 2,
      shareProto: 'NFS',
      shareType: { id: 't1', name: 'default', extraSpecs: specs },
      capabilities: capabilitiesOf(specs),
      availabilityZone: null,
      metadata: {},
      isPublic: false,
      snapshotId: null,
      schedulerHints: null,
      createdAt: now,
      ...more,
    },
  };
};

export const scheduled: ShareEvent = {
  type: 'ShareScheduled',
  data: { instanceId: 'i1', host: HOST, availabilityZone: 'az-1', size: 2, scheduledAt: now },
};

/** A node's claim of `operation` on instance `instanceId` (of snapshot instance `snapshot`). */
export const operationStarted = (
  instanceId: string,
  host: string,
  operation: DriverOperation,
  commandId: string,
  startedAt: string,
  snapshot?: { snapshotId: string; snapshotInstanceId: string },
): ShareEvent => ({
  type: 'ShareDriverOperationStarted',
  data: { instanceId, operation, commandId, host, ...snapshot, startedAt },
});

export const claimed = (
  operation: DriverOperation,
  commandId: string,
  snapshot?: { snapshotId: string; snapshotInstanceId: string },
): ShareEvent => operationStarted('i1', HOST, operation, commandId, now, snapshot);

export const created: ShareEvent = {
  type: 'ShareCreated',
  data: { instanceId: 'i1', commandId: 'c-create', exportLocations: [], createdAt: now },
};

/** A share that is available on one instance, with snapshot support unless told otherwise. */
export const availableShare = (extraSpecs: Record<string, string> = {}): ShareEvent[] => [
  shareRequested(extraSpecs),
  scheduled,
  claimed('create_share', 'c-create'),
  created,
];

/** The share a history leaves, which the spec expects to exist. */
export const activeShareAfter = (events: readonly ShareEvent[]): ActiveShare => {
  const state = fold(shareDecider, events);
  if (!isActiveShare(state)) throw new Error(`the history leaves the share ${state.kind}`);
  return state;
};

/** Replica r1 asked for (on `onlyHost` when given), placed on a host, refused by one. */
export const replicaRequested = (onlyHost?: string): ShareEvent => ({
  type: 'ReplicaRequested',
  data: {
    replicaId: 'r1',
    availabilityZone: null,
    ...(onlyHost !== undefined && { onlyHost }),
    snapshotInstances: [],
    quotaHolderId: 'r1',
    requestedAt: later,
  },
});
export const replicaScheduledOn = (host: string): ShareEvent => ({
  type: 'ReplicaScheduled',
  data: { replicaId: 'r1', host, availabilityZone: 'az-2', size: 2, scheduledAt: later },
});
export const replicaPlacementRejected = (host: string, attemptedHosts: string[]): ShareEvent => ({
  type: 'ReplicaPlacementRejected',
  data: { replicaId: 'r1', host, message: 'no room', attemptedHosts, rejectedAt: later },
});

/** Project p1's request for snapshot `snapshotId` of the share, with no name or description. */
export const snapshotRequest = (now: string, snapshotId = 'snap1'): ShareCommand => ({
  type: 'RequestSnapshot',
  snapshotId,
  projectId: 'p1',
  userId: 'u1',
  name: null,
  description: null,
  now,
});

/** The scheduler's placement of instance `instanceId` on `host`. */
export const placementOn = (
  instanceId: string,
  host: string,
  availabilityZone: string,
  now: string,
): ShareCommand => ({ type: 'ScheduleShareInstance', instanceId, host, availabilityZone, now });

/** An admin of project admin-p asked to adopt snapshot `ref` of share s1 (size 2) from `old-snap`. */
export const snapshotManageRequested = (ref: {
  snapshotId: string;
  snapshotInstanceId: string;
}): ShareEvent => ({
  type: 'SnapshotManageRequested',
  data: {
    ...ref,
    shareInstanceId: 'i1',
    projectId: 'admin-p',
    userId: 'admin',
    name: 'adopted',
    description: null,
    metadata: {},
    size: 2,
    providerLocation: 'old-snap',
    driverOptions: {},
    createdAt: later,
  },
});

/** Rule a1 (`rw` for 192.0.2.0/24) allowed on instance i1, queued there. */
export const ruleAllowed: ShareEvent = {
  type: 'ShareAccessAllowed',
  data: {
    accessId: 'a1',
    accessType: 'ip',
    accessTo: '192.0.2.0/24',
    accessLevel: 'rw',
    metadata: {},
    instanceIds: ['i1'],
    createdAt: now,
  },
};
