import type { DomainEvent } from '#hawser/domain';
import { projectionSpec } from '../test-support/projection-spec.js';
import { MESSAGES, messagesProjection, type MessageDocument } from './messages.projection.js';

const requested: DomainEvent = {
  type: 'ShareRequested',
  data: {
    shareId: 's1',
    instanceId: 'i1',
    projectId: 'p1',
    userId: 'u1',
    name: null,
    description: null,
    size: 1,
    shareProto: 'NFS',
    shareType: { id: 't1', name: 'default', extraSpecs: {} },
    capabilities: {},
    availabilityZone: null,
    metadata: {},
    isPublic: false,
    snapshotId: null,
    schedulerHints: null,
    createdAt: '2026-11-22T10:00:00.000Z',
  },
};
const schedulingFailed: DomainEvent = {
  type: 'ShareSchedulingFailed',
  data: {
    instanceId: 'i1',
    message: 'No valid host was found.',
    detail: {
      lastFilter: 'CapacityFilter',
      userMessage: {
        actionId: '001',
        detailId: '009',
        userMessage:
          "allocate host: No storage could be allocated for this share request, Capacity filter didn't succeed.",
      },
    },
    failedAt: '2026-11-22T10:00:01.000Z',
  },
};
const creationFailed: DomainEvent = {
  type: 'ShareCreationFailed',
  data: {
    instanceId: 'i1',
    commandId: 'c1',
    message: 'boom',
    failedAt: '2026-11-22T10:00:02.000Z',
  },
};

describe('messages projection', () => {
  it('given a share, when an access update fails on the back end, then an update-access-rules message', () =>
    projectionSpec(messagesProjection)
      .given({ 'share-s1': [requested] })
      .when({
        'share-s1': [
          {
            type: 'ShareAccessUpdateFailed',
            data: {
              instanceId: 'i1',
              commandId: 'c2',
              message: 'The NFS server refused the access rules (detail for operators)',
              failedAt: '2026-11-22T10:00:03.000Z',
            },
          },
        ],
      })
      .then(async (docs) => {
        const [message] = await docs.find<MessageDocument>(MESSAGES, {});
        expect(message).toMatchObject({
          project_id: 'p1',
          action_id: '010',
          detail_id: '903',
          resource_type: 'SHARE',
          resource_id: 's1',
          user_message:
            'update access rules: The back end could not apply the access rules; the rules it was applying are in error.',
        });
      }));

  it('given a share, when its migration fails, then a migrate message says the share stayed where it was', () =>
    projectionSpec(messagesProjection)
      .given({ 'share-s1': [requested] })
      .when({
        'share-s1': [
          {
            type: 'ShareMigrationFailed',
            data: {
              destinationInstanceId: 'i2',
              destinationCleanup: true,
              message: 'The copy to the destination failed (detail for operators)',
              failedAt: '2026-11-22T10:00:04.000Z',
            },
          },
        ],
      })
      .then(async (docs) => {
        const messages = await docs.find<MessageDocument>(MESSAGES, {});
        expect(messages).toEqual([
          expect.objectContaining({
            project_id: 'p1',
            action_id: '901',
            detail_id: '905',
            message_level: 'ERROR',
            resource_type: 'SHARE',
            resource_id: 's1',
            user_message:
              'migrate: The share could not be migrated to the requested host; it stays available where it was and the copy at the destination is removed. Contact your administrator to determine the cause of this failure.',
            created_at: '2026-11-22T10:00:04.000Z',
          }),
        ]);
      }));

  it('given a requested share, when an access update puts some rules to error, then one message says so; none when all apply', () =>
    projectionSpec(messagesProjection)
      .given({ 'share-s1': [requested] })
      .when({
        'share-s1': [
          {
            type: 'ShareAccessUpdated',
            data: {
              instanceId: 'i1',
              commandId: 'c2',
              ruleUpdates: { r1: { state: 'active' } },
              updatedAt: '2026-11-22T10:00:03.000Z',
            },
          },
          {
            type: 'ShareAccessUpdated',
            data: {
              instanceId: 'i1',
              commandId: 'c3',
              ruleUpdates: { r1: { state: 'active' }, r2: { state: 'error' } },
              updatedAt: '2026-11-22T10:00:04.000Z',
            },
          },
        ],
      })
      .then(async (docs) => {
        const messages = await docs.find<MessageDocument>(MESSAGES, {});
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatchObject({
          action_id: '010',
          detail_id: '904',
          resource_id: 's1',
          created_at: '2026-11-22T10:00:04.000Z',
        });
        expect(messages[0]?.user_message).toContain('cannot enforce some of the access rules');
      }));

  it('given a requested share, when placement fails, then the message has the recorded detail', () =>
    projectionSpec(messagesProjection)
      .given({ 'share-s1': [requested] })
      .when({ 'share-s1': [schedulingFailed] })
      .then(async (docs) => {
        const [message] = await docs.find<MessageDocument>(MESSAGES, {});
        expect(message).toMatchObject({
          project_id: 'p1',
          action_id: '001',
          detail_id: '009',
          message_level: 'ERROR',
          resource_type: 'SHARE',
          resource_id: 's1',
          user_message:
            "allocate host: No storage could be allocated for this share request, Capacity filter didn't succeed.",
          created_at: '2026-11-22T10:00:01.000Z',
          expires_at: '2026-12-22T10:00:01.000Z',
        });
      }));

  it('given a failed creation, then the message is action 002 with the unknown-error detail', () =>
    projectionSpec(messagesProjection)
      .given({ 'share-s1': [requested] })
      .when({ 'share-s1': [creationFailed] })
      .then(async (docs) => {
        const [message] = await docs.find<MessageDocument>(MESSAGES, {});
        expect(message).toMatchObject({
          action_id: '002',
          detail_id: '001',
          user_message: 'create: An unknown error occurred.',
        });
      }));

  it('given a replica, when its placement and a promotion fail, then the messages are about the replica', () =>
    projectionSpec(messagesProjection)
      .given({ 'share-s1': [requested] })
      .when({
        'share-s1': [
          {
            type: 'ReplicaSchedulingFailed',
            data: {
              replicaId: 'r1',
              message: 'No valid host was found.',
              detail: {},
              failedAt: '2026-11-22T10:00:03.000Z',
            },
          },
          {
            type: 'ReplicaPromotionFailed',
            data: {
              replicaId: 'r2',
              commandId: 'c2',
              message: 'boom',
              failedAt: '2026-11-22T10:00:04.000Z',
            },
          },
        ],
      })
      .then(async (docs) => {
        const messages = await docs.find<MessageDocument>(
          MESSAGES,
          {},
          {
            sort: [['created_at', 1]],
          },
        );
        expect(
          messages.map((m) => [m.resource_type, m.resource_id, m.action_id, m.user_message]),
        ).toEqual([
          ['SHARE_REPLICA', 'r1', '001', 'allocate host: An unknown error occurred.'],
          ['SHARE_REPLICA', 'r2', '004', 'promote: An unknown error occurred.'],
        ]);
        expect(messages.every((m) => m.project_id === 'p1')).toBe(true);
      }));

  it('given a message, when it is deleted, then it is gone and the share deletion keeps others', async () => {
    let messageId = '';
    await projectionSpec(messagesProjection)
      .given({ 'share-s1': [requested, schedulingFailed] })
      .then(async (docs) => {
        messageId = (await docs.find<MessageDocument>(MESSAGES, {}))[0]?.id ?? '';
      });
    expect(messageId).not.toBe('');
    await projectionSpec(messagesProjection)
      .given({ 'share-s1': [requested, schedulingFailed, creationFailed] })
      .when({
        [`message-${messageId}`]: [
          {
            type: 'UserMessageDeleted',
            data: { messageId, projectId: 'p1', deletedAt: '2026-11-22T11:00:00.000Z' },
          },
        ],
        'share-s1': [{ type: 'ShareDeleted', data: { shareId: 's1', deletedAt: 't9' } }],
      })
      .then(async (docs) => {
        const messages = await docs.find<MessageDocument>(MESSAGES, {});
        expect(messages.map((m) => m.action_id)).toEqual(['002']);
      });
  });
});
