import {
  capabilitiesOf,
  fold,
  shareDecider,
  snapshotInstanceIdOf,
  type ShareCommand,
  type ShareEvent,
} from '#hawser/domain';
import type { DocumentStore } from '#hawser/read-models';
import { sharesProjection } from '../shares/shares.projection.js';
import { projectionSpec } from '../test-support/projection-spec.js';
import { SNAPSHOTS, type SnapshotDocument } from './snapshot.documents.js';

const now = '2026-11-23T10:00:00.000Z';
const ON_ACTIVE = snapshotInstanceIdOf('snap1', 'i1');
const ON_REPLICA = snapshotInstanceIdOf('snap1', 'r1');
const specs = { snapshot_support: 'True', replication_type: 'readable' };

/** The events the share decider decides for `commands`, one after the other. */
const decided = (past: ShareEvent[], commands: ShareCommand[]): ShareEvent[] =>
  commands.reduce<ShareEvent[]>(
    (events, command) => [...events, ...shareDecider.decide(command, fold(shareDecider, events))],
    past,
  );
const claim = (
  instanceId: string,
  host: string,
  operation: 'create_share' | 'create_replica' | 'create_replicated_snapshot',
  commandId: string,
): ShareCommand => ({
  type: 'StartDriverOperation',
  instanceId,
  operation,
  commandId,
  host,
  ...(operation === 'create_replicated_snapshot' && {
    snapshotId: 'snap1',
    snapshotInstanceId: ON_ACTIVE,
  }),
  now,
});

/** A readable share, active i1 and in_sync r1, whose active node took snapshot snap1. */
const taken = decided(
  [],
  [
    {
      type: 'RequestShare',
      shareId: 's1',
      instanceId: 'i1',
      projectId: 'p1',
      userId: 'u1',
      name: null,
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
      createdAt: now,
    },
    {
      type: 'ScheduleShareInstance',
      instanceId: 'i1',
      host: 'n1@a#p',
      availabilityZone: 'az-1',
      now,
    },
    claim('i1', 'n1@a#p', 'create_share', 'c-share'),
    {
      type: 'CompleteShareInstanceCreation',
      instanceId: 'i1',
      commandId: 'c-share',
      exportLocations: [],
      now,
    },
    { type: 'RequestReplica', replicaId: 'r1', availabilityZone: 'az-2', now },
    { type: 'ScheduleReplica', replicaId: 'r1', host: 'n2@b#p', availabilityZone: 'az-2', now },
    claim('r1', 'n2@b#p', 'create_replica', 'c-replica'),
    {
      type: 'CompleteReplicaCreation',
      replicaId: 'r1',
      commandId: 'c-replica',
      replicaState: 'in_sync',
      exportLocations: [],
      accessRulesStatus: 'active',
      snapshotInstanceIds: [],
      now,
    },
    {
      type: 'RequestSnapshot',
      snapshotId: 'snap1',
      projectId: 'p1',
      userId: 'u1',
      name: 'first',
      description: null,
      now,
    },
    claim('i1', 'n1@a#p', 'create_replicated_snapshot', 'c-snap'),
    {
      type: 'CompleteReplicatedSnapshotCreation',
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
      now,
    },
  ],
);
const refreshed = decided(taken, [
  {
    type: 'RefreshReplicaSnapshot',
    snapshotId: 'snap1',
    snapshotInstanceId: ON_REPLICA,
    outcome: { status: 'available', progress: '100%' },
    now,
  },
]).slice(taken.length);

const listed = (docs: DocumentStore) => docs.get<SnapshotDocument>(SNAPSHOTS, 'snap1');

describe('snapshots projection: a share with replicas (reference 5.8)', () => {
  it('given the active replica’s node took it, then it is listed creating while the replica’s instance is', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s1': taken })
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
    projectionSpec(sharesProjection)
      .given({ 'share-s1': taken })
      .when({ 'share-s1': refreshed })
      .then(async (docs) => {
        expect(refreshed.map((e) => e.type)).toEqual(['ReplicaSnapshotRefreshed']);
        expect(await listed(docs)).toMatchObject({ status: 'available', progress: '100%' });
      }));

  it('when the active node deleted its instance, then it is deleting until the replica’s goes', () => {
    const past = [...taken, ...refreshed];
    const deleting = decided(past, [
      { type: 'DeleteSnapshot', snapshotId: 'snap1', force: false, now },
      {
        type: 'StartDriverOperation',
        instanceId: 'i1',
        operation: 'delete_replicated_snapshot',
        commandId: 'c-del',
        host: 'n1@a#p',
        snapshotId: 'snap1',
        snapshotInstanceId: ON_ACTIVE,
        now,
      },
      {
        type: 'CompleteReplicatedSnapshotDeletion',
        snapshotId: 'snap1',
        commandId: 'c-del',
        snapshotInstanceIds: [ON_ACTIVE],
        now,
      },
    ]).slice(past.length);
    return projectionSpec(sharesProjection)
      .given({ 'share-s1': past })
      .when({ 'share-s1': deleting })
      .then(async (docs) => {
        expect(await listed(docs)).toMatchObject({
          status: 'deleting',
          instances: [{ id: ON_REPLICA, status: 'deleting' }],
        });
      });
  });
});
