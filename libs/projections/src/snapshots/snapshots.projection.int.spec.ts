import { capabilitiesOf, snapshotInstanceIdOf, type ShareEvent } from '#hawser/domain';
import { projectionSpec } from '../test-support/projection-spec.js';
import { SNAPSHOTS, type SnapshotDocument } from './snapshot.documents.js';
import { sharesProjection } from '../shares/shares.projection.js';

const at = '2026-11-22T10:00:00.000Z';
const later = '2026-11-22T10:01:00.000Z';
const SI = snapshotInstanceIdOf('snap1', 'i1');
const share: ShareEvent[] = [
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
      shareType: { id: 't1', name: 'gold', extraSpecs: { snapshot_support: 'True' } },
      capabilities: capabilitiesOf({ snapshot_support: 'True' }),
      availabilityZone: null,
      metadata: {},
      isPublic: false,
      snapshotId: null,
      schedulerHints: null,
      createdAt: at,
    },
  },
  {
    type: 'ShareScheduled',
    data: { instanceId: 'i1', host: 'n@b#p', availabilityZone: 'az-1', size: 3, scheduledAt: at },
  },
];
const requested: ShareEvent = {
  type: 'SnapshotRequested',
  data: {
    snapshotId: 'snap1',
    projectId: 'p1',
    userId: 'u1',
    name: 'first',
    description: 'd',
    size: 3,
    instances: [{ id: SI, shareInstanceId: 'i1' }],
    createdAt: at,
  },
};
const claim: ShareEvent = {
  type: 'ShareDriverOperationStarted',
  data: {
    instanceId: 'i1',
    operation: 'create_snapshot',
    commandId: 'c1',
    host: 'n@b#p',
    snapshotId: 'snap1',
    snapshotInstanceId: SI,
    startedAt: at,
  },
};
const created: ShareEvent = {
  type: 'SnapshotInstanceCreated',
  data: {
    snapshotId: 'snap1',
    snapshotInstanceId: SI,
    commandId: 'c1',
    status: 'available',
    progress: '100%',
    providerLocation: 'sim:/x',
    createdAt: later,
  },
};

describe('snapshots projection', () => {
  it('given a requested snapshot, then it is listed creating at 0% with the share size', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s1': [...share, requested] })
      .then(async (docs) => {
        expect(await docs.get<SnapshotDocument>(SNAPSHOTS, 'snap1')).toMatchObject({
          share_id: 's1',
          share_size: 3,
          share_proto: 'NFS',
          size: 3,
          status: 'creating',
          progress: '0%',
          name: 'first',
          project_id: 'p1',
          instances: [{ id: SI, share_instance_id: 'i1', status: 'creating' }],
        });
      }));

  it('when the driver created it, then it is available with its provider location', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s1': [...share, requested, claim] })
      .when({ 'share-s1': [created] })
      .then(async (docs) => {
        expect(await docs.get<SnapshotDocument>(SNAPSHOTS, 'snap1')).toMatchObject({
          status: 'available',
          progress: '100%',
          provider_location: 'sim:/x',
          updated_at: later,
        });
      }));

  it('when its last instance is deleted, then it leaves the listing', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s1': [...share, requested, claim, created] })
      .when({
        'share-s1': [
          {
            type: 'SnapshotDeletionRequested',
            data: {
              snapshotId: 'snap1',
              snapshotInstanceIds: [SI],
              force: true,
              requestedAt: later,
            },
          },
          {
            type: 'SnapshotInstanceDeleted',
            data: {
              snapshotId: 'snap1',
              snapshotInstanceId: SI,
              commandId: null,
              deletedAt: later,
            },
          },
          { type: 'SnapshotDeleted', data: { snapshotId: 'snap1', deletedAt: later } },
        ],
      })
      .then(async (docs) => {
        expect(await docs.get(SNAPSHOTS, 'snap1')).toBeUndefined();
        expect(await docs.find(SNAPSHOTS, {})).toEqual([]);
      }));
});
