import { capabilitiesOf, type ShareEvent } from '#hawser/domain';
import type { DocumentStore } from '#hawser/read-models';
import {
  MESSAGES,
  messagesProjection,
  type MessageDocument,
} from '../messages/messages.projection.js';
import { projectionSpec } from '../test-support/projection-spec.js';
import { SHARES, shareDocumentOf, type ShareRecord } from './share.documents.js';
import { sharesProjection } from './shares.projection.js';
import { getShareInstance } from './stored-share-instance.js';

const at = (second: number) => `2026-11-22T10:00:0${second}.000Z`;
const HOST = 'n@b#p2';
const requested: ShareEvent = {
  type: 'ShareRequested',
  data: {
    shareId: 's2',
    instanceId: 'i2',
    projectId: 'p1',
    userId: 'u1',
    name: 'clone',
    description: null,
    size: 2,
    shareProto: 'NFS',
    shareType: { id: 't1', name: 'gold', extraSpecs: {} },
    capabilities: capabilitiesOf({ create_share_from_snapshot_support: 'True' }),
    availabilityZone: 'az-1',
    metadata: {},
    isPublic: false,
    snapshotId: 'snap1',
    snapshotSource: {
      snapshotId: 'snap1',
      snapshotInstanceId: 'snap1-i',
      shareId: 's1',
      shareInstanceId: 'i1',
      host: 'n@b#p1',
      availabilityZone: 'az-1',
      size: 2,
      placement: 'scheduler',
    },
    schedulerHints: null,
    createdAt: at(0),
  },
};
const placed: ShareEvent[] = [
  requested,
  {
    type: 'ShareScheduled',
    data: { instanceId: 'i2', host: HOST, availabilityZone: 'az-1', size: 2, scheduledAt: at(0) },
  },
  {
    type: 'ShareDriverOperationStarted',
    data: {
      instanceId: 'i2',
      operation: 'create_share_from_snapshot',
      commandId: 'c1',
      host: HOST,
      startedAt: at(1),
    },
  },
];
const asynchronous: ShareEvent = {
  type: 'ShareCreationDeferred',
  data: { instanceId: 'i2', commandId: 'c1', progress: '0%', answeredAt: at(2) },
};
const progressed = (progress: string, second: number): ShareEvent => ({
  type: 'ShareCreationProgressed',
  data: { instanceId: 'i2', progress, progressedAt: at(second) },
});
const created: ShareEvent = {
  type: 'ShareCreated',
  data: {
    instanceId: 'i2',
    commandId: 'poll-3',
    exportLocations: [{ id: 'e1', path: 'n:/p2/i2', preferred: true, isAdminOnly: false }],
    createdAt: at(5),
  },
};
const failed: ShareEvent = {
  type: 'ShareCreationFailed',
  data: { instanceId: 'i2', commandId: 'poll-3', message: 'copy failed', failedAt: at(5) },
};

const shareOf = async (docs: DocumentStore) =>
  shareDocumentOf((await docs.get<ShareRecord>(SHARES, 's2')) as ShareRecord);
const messagesOf = async (docs: DocumentStore) =>
  (await docs.find<MessageDocument>(MESSAGES, {})).sort((a, b) =>
    a.created_at.localeCompare(b.created_at),
  );

describe('a share created from a snapshot in the read models', () => {
  it('given the asynchronous answer, when polls progress, then the share and instance show it', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s2': [...placed, asynchronous] })
      .when({ 'share-s2': [progressed('40%', 3), progressed('85%', 4)] })
      .then(async (docs) => {
        expect(await shareOf(docs)).toMatchObject({
          status: 'creating_from_snapshot',
          progress: '85%',
          snapshot_id: 'snap1',
          export_locations: [],
        });
        const instance = await getShareInstance(docs, 'i2');
        expect(instance).toMatchObject({
          status: 'creating_from_snapshot',
          progress: '85%',
          pending_operation: null,
        });
      }));

  it('given progress, when the poll finds it available, then it is available at 100% with export locations', () =>
    projectionSpec(sharesProjection)
      .given({ 'share-s2': [...placed, asynchronous, progressed('60%', 3)] })
      .when({ 'share-s2': [created] })
      .then(async (docs) => {
        const share = await shareOf(docs);
        expect(share).toMatchObject({ status: 'available', progress: '100%' });
        expect(share.export_locations.map((l) => l.path)).toEqual(['n:/p2/i2']);
      }));

  it('given the asynchronous answer, then an INFO message says so; when it completes, a second one', () =>
    projectionSpec(messagesProjection)
      .given({ 'share-s2': [...placed, asynchronous] })
      .when({ 'share-s2': [progressed('50%', 3), created] })
      .then(async (docs) => {
        const messages = await messagesOf(docs);
        expect(messages).toMatchObject([
          {
            action_id: '002',
            detail_id: '901',
            message_level: 'INFO',
            resource_id: 's2',
            project_id: 'p1',
            user_message: expect.stringMatching(
              /^create: The share is being created from the snapshot/,
            ),
          },
          {
            action_id: '005',
            detail_id: '902',
            message_level: 'INFO',
            user_message: 'update: The share was created from the snapshot and is available.',
          },
        ]);
      }));

  it('when the background creation fails, then an ERROR message has Manila detail 017 (action 005)', () =>
    projectionSpec(messagesProjection)
      .given({ 'share-s2': [...placed, asynchronous] })
      .when({ 'share-s2': [failed] })
      .then(async (docs) => {
        const messages = await messagesOf(docs);
        expect(messages.map((m) => [m.action_id, m.detail_id, m.message_level])).toEqual([
          ['002', '901', 'INFO'],
          ['005', '017', 'ERROR'],
        ]);
        expect(messages[1]?.user_message).toMatch(
          /^update: Share Driver has failed to create the share from snapshot/,
        );
      }));

  it('when the driver refuses at once, then the ERROR message is action 002 with detail 017', () =>
    projectionSpec(messagesProjection)
      .given({ 'share-s2': placed })
      .when({ 'share-s2': [failed] })
      .then(async (docs) => {
        const messages = await messagesOf(docs);
        expect(messages.map((m) => [m.action_id, m.detail_id, m.message_level])).toEqual([
          ['002', '017', 'ERROR'],
        ]);
      }));
});
