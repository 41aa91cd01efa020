import { capabilitiesOf, snapshotInstanceIdOf, type ShareEvent } from '#hawser/domain';
import type { DocumentStore } from '#hawser/read-models';
import { projectionSpec } from '../test-support/projection-spec.js';
import { SNAPSHOTS, type SnapshotDocument } from './snapshot.documents.js';
import { snapshotsProjection } from './snapshots.projection.js';

const at = '2026-11-23T10:00:00.000Z';
const later = '2026-11-23T10:05:00.000Z';
const ON_ACTIVE = snapshotInstanceIdOf('snap1', 'i1');
const ON_REPLICA = snapshotInstanceIdOf('snap1', 'r1');
const specs = { snapshot_support: 'True', replication_type: 'readable' };

const claim = (
  instanceId: string,
  operation:
    'create_share' | 'create_replica' | 'create_replicated_snapshot' | 'delete_replicated_snapshot',
  commandId: string,
): ShareEvent => ({
  type: 'ShareDriverOperationStarted',
  data: {
    instanceId,
    operation,
    commandId,
    host: instanceId === 'i1' ? 'n1@a#p' : 'n2@b#p',
    ...(operation.endsWith('_replicated_snapshot') && {
      snapshotId: 'snap1',
      snapshotInstanceId: ON_ACTIVE,
    }),
    startedAt: at,
  },
});

/** A readable share: active i1, in_sync replica r1. */
const replicatedShare: ShareEvent[] = [
  {
    type: 'ShareRequested',
    data: {
      shareId: 's1',
      instanceId: 'i1',
      projectId: 'p1',
      userId: 'u1',
      name: 'a',
      description: null,
      size: 3,
      shareProto: 'NFS',
      shareType: { id: 't1', name: 'readable', extraSpecs: specs },
      capabilities: capabilitiesOf(specs),
      availabilityZone: 'az-1',
      metadata: {},
      isPublic: false,
      snapshotId: null,
      schedulerHints: null,
      createdAt: at,
    },
  },
  {
    type: 'ShareScheduled',
    data: { instanceId: 'i1', host: 'n1@a#p', availabilityZone: 'az-1', size: 3, scheduledAt: at },
  },
  claim('i1', 'create_share', 'c-share'),
  {
    type: 'ShareCreated',
    data: { instanceId: 'i1', commandId: 'c-share', exportLocations: [], createdAt: at },
  },
  {
    type: 'ReplicaRequested',
    data: {
      replicaId: 'r1',
      availabilityZone: 'az-2',
      snapshotInstances: [],
      quotaHolderId: 'r1',
      requestedAt: at,
    },
  },
  {
    type: 'ReplicaScheduled',
    data: { replicaId: 'r1', host: 'n2@b#p', availabilityZone: 'az-2', size: 3, scheduledAt: at },
  },
  claim('r1', 'create_replica', 'c-replica'),
  {
    type: 'ReplicaCreated',
    data: {
      replicaId: 'r1',
      commandId: 'c-replica',
      replicaState: 'in_sync',
      exportLocations: [],
      accessRulesStatus: 'active',
      snapshotInstanceIds: [],
      createdAt: at,
    },
  },
];
const taken: ShareEvent[] = [
  {
    type: 'SnapshotRequested',
    data: {
      snapshotId: 'snap1',
      projectId: 'p1',
      userId: 'u1',
      name: 'first',
      description: null,
      size: 3,
      instances: [
        { id: ON_ACTIVE, shareInstanceId: 'i1' },
        { id: ON_REPLICA, shareInstanceId: 'r1' },
      ],
      activeInstanceId: 'i1',
      createdAt: at,
    },
  },
  claim('i1', 'create_replicated_snapshot', 'c-snap'),
  {
    type: 'ReplicatedSnapshotCreated',
    data: {
      snapshotId: 'snap1',
      commandId: 'c-snap',
      instances: [
        {
          snapshotInstanceId: ON_ACTIVE,
          status: 'available',
          progress: '100%',
          providerLocation: 'sim:a',
        },
        {
          snapshotInstanceId: ON_REPLICA,
          status: 'creating',
          progress: '0%',
          providerLocation: null,
        },
      ],
      createdAt: later,
    },
  },
];
const refreshed: ShareEvent = {
  type: 'ReplicaSnapshotRefreshed',
  data: {
    snapshotId: 'snap1',
    snapshotInstanceId: ON_REPLICA,
    status: 'available',
    progress: '100%',
    refreshedAt: later,
  },
};

const listed = (docs: DocumentStore) => docs.get<SnapshotDocument>(SNAPSHOTS, 'snap1');

describe('snapshots projection: a share with replicas (reference 5.8)', () => {
  it('given the active replica’s node took it, then it is listed creating while the replica’s instance is', () =>
    projectionSpec(snapshotsProjection)
      .given({ 'share-s1': [...replicatedShare, ...taken] })
      .then(async (docs) => {
        expect(await listed(docs)).toMatchObject({
          status: 'creating',
          provider_location: 'sim:a',
          instances: [
            { id: ON_ACTIVE, share_instance_id: 'i1', status: 'available' },
            { id: ON_REPLICA, share_instance_id: 'r1', status: 'creating' },
          ],
        });
      }));

  it('when the replica’s refresh finds its instance available, then the snapshot is available', () =>
    projectionSpec(snapshotsProjection)
      .given({ 'share-s1': [...replicatedShare, ...taken] })
      .when({ 'share-s1': [refreshed] })
      .then(async (docs) => {
        expect(await listed(docs)).toMatchObject({ status: 'available', progress: '100%' });
      }));

  it('when the active node deleted its instance and the refresh the replica’s, then it leaves the listing', () =>
    projectionSpec(snapshotsProjection)
      .given({ 'share-s1': [...replicatedShare, ...taken, refreshed] })
      .when({
        'share-s1': [
          {
            type: 'SnapshotDeletionRequested',
            data: {
              snapshotId: 'snap1',
              snapshotInstanceIds: [ON_ACTIVE, ON_REPLICA],
              force: false,
              activeInstanceId: 'i1',
              requestedAt: later,
            },
          },
          claim('i1', 'delete_replicated_snapshot', 'c-del'),
          {
            type: 'ReplicatedSnapshotInstancesDeleted',
            data: {
              snapshotId: 'snap1',
              commandId: 'c-del',
              snapshotInstanceIds: [ON_ACTIVE],
              deletedAt: later,
            },
          },
        ],
      })
      .then(async (docs) => {
        expect(await listed(docs)).toMatchObject({
          status: 'deleting',
          instances: [{ id: ON_REPLICA, status: 'deleting' }],
        });
      }));
});
