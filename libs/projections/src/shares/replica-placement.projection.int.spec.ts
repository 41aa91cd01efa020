import { capabilitiesOf, type ShareEvent } from '#hawser/domain';
import {
  MESSAGES,
  messagesProjection,
  type MessageDocument,
} from '../messages/messages.projection.js';
import { projectionSpec } from '../test-support/projection-spec.js';
import { sharesProjection } from './shares.projection.js';
import { getShareInstance } from './stored-share-instance.js';

const at = '2026-11-22T10:00:00.000Z';
const specs = { replication_type: 'readable' };
const POOLS = ['n2@b#p1', 'n2@b#p2', 'n2@b#p3'];

/** A readable share, available on n1, and its replica r1 requested in az-2. */
const replicatedShare: ShareEvent[] = [
  {
    type: 'ShareRequested',
    data: {
      shareId: 's1',
      instanceId: 'i1',
      projectId: 'p1',
      userId: 'u1',
      name: null,
      description: null,
      size: 30,
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
    data: { instanceId: 'i1', host: 'n1@b#p', availabilityZone: 'az-1', size: 30, scheduledAt: at },
  },
  {
    type: 'ShareDriverOperationStarted',
    data: {
      instanceId: 'i1',
      operation: 'create_share',
      commandId: 'c1',
      host: 'n1@b#p',
      startedAt: at,
    },
  },
  {
    type: 'ShareCreated',
    data: { instanceId: 'i1', commandId: 'c1', exportLocations: [], createdAt: at },
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
];
const scheduledOn = (host: string): ShareEvent => ({
  type: 'ReplicaScheduled',
  data: { replicaId: 'r1', host, availabilityZone: 'az-2', size: 30, scheduledAt: at },
});
const rejectedBy = (count: number): ShareEvent => ({
  type: 'ReplicaPlacementRejected',
  data: {
    replicaId: 'r1',
    host: POOLS[count - 1] ?? '',
    message: 'no room',
    attemptedHosts: POOLS.slice(0, count),
    rejectedAt: at,
  },
});
/** Each pool's node refused it in turn. */
const refusedByEveryPool = POOLS.flatMap((host, k) => [scheduledOn(host), rejectedBy(k + 1)]);

describe('read models of a replica its pools refused', () => {
  it('show the handed-back replica unplaced, creating, in the zone it was requested in', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s1': replicatedShare })
      .when({ 'share-s1': [scheduledOn(POOLS[0] ?? ''), rejectedBy(1)] })
      .then(async (docs) => {
        expect(await getShareInstance(docs, 'r1')).toMatchObject({
          host: '',
          availability_zone: 'az-2',
          status: 'creating',
          replica_state: 'out_of_sync',
        });
      }));

  it("leave one message about the replica once the last attempt fails, Manila's NoValidHost", () =>
    projectionSpec(messagesProjection, sharesProjection)
      .given({ 'share-s1': replicatedShare })
      .when({
        'share-s1': [
          ...refusedByEveryPool,
          {
            type: 'ReplicaSchedulingFailed',
            data: {
              replicaId: 'r1',
              message: 'No valid host was found. Exceeded max scheduling attempts 3 for share s1',
              detail: {
                attemptedHosts: POOLS,
                userMessage: {
                  actionId: '001',
                  detailId: '002',
                  userMessage:
                    'allocate host: No storage could be allocated for this share request. Trying again with a different size or share type may succeed.',
                },
              },
              failedAt: at,
            },
          },
        ],
      })
      .then(async (docs) => {
        const messages = await docs.find<MessageDocument>(MESSAGES, {});
        expect(
          messages.map((m) => [m.resource_type, m.resource_id, m.action_id, m.detail_id]),
        ).toEqual([['SHARE_REPLICA', 'r1', '001', '002']]);
        expect(await getShareInstance(docs, 'r1')).toMatchObject({
          host: '',
          status: 'error',
          replica_state: 'error',
        });
      }));
});
