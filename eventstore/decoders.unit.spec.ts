import { EventDecodeError, type RecordedEvent } from '#hawser/eventstore';
import {
  backendEvents,
  quotaEvents,
  shareEvents,
  shareTypeEvents,
  userMessageEvents,
} from './decoders.js';

const AT = '2026-01-01T00:00:00.000Z';

const recorded = (
  streamId: string,
  type: string,
  data: unknown,
  schemaVersion = 1,
): RecordedEvent => ({
  id: `${streamId}-${type}`,
  type,
  data,
  metadata: { schemaVersion, recordedAt: AT, commandId: 'command-1' },
  streamId,
  revision: 3,
  position: 42,
});

describe('event decoders', () => {
  it('decodes a share event to its union member, metadata and position kept', () => {
    const event = shareEvents.decode(
      recorded('share-1', 'ShareScheduled', { instanceId: 'i-1', host: 'node1@lvm#pool' }),
    );

    expect(event.type).toBe('ShareScheduled');
    expect(event.data).toEqual({ instanceId: 'i-1', host: 'node1@lvm#pool' });
    expect(event).toMatchObject({ streamId: 'share-1', revision: 3, position: 42 });
    expect(event.metadata).toEqual({ schemaVersion: 1, recordedAt: AT, commandId: 'command-1' });
  });

  it('decodes a share-type, back-end, quota and message event to its own union', () => {
    const shareType = shareTypeEvents.decode(
      recorded('sharetype-1', 'ShareTypeDeleted', { shareTypeId: 't-1', deletedAt: AT }),
    );
    const backend = backendEvents.decode(
      recorded('backend-node1@lvm', 'BackendRegistered', { backend: 'node1@lvm' }),
    );
    const quota = quotaEvents.decode(
      recorded('quota-p1', 'QuotaReleased', { projectId: 'p1', holderId: 'h1', deltas: {} }),
    );
    const message = userMessageEvents.decode(
      recorded('message-p1', 'UserMessageDeleted', { messageId: 'm-1', projectId: 'p1' }),
    );

    expect([shareType.type, backend.type, quota.type, message.type]).toEqual([
      'ShareTypeDeleted',
      'BackendRegistered',
      'QuotaReleased',
      'UserMessageDeleted',
    ]);
    expect(message.type === 'UserMessageDeleted' && message.data.messageId).toBe('m-1');
  });

  it('upcasts an older version to the current one (SnapshotDeleted v1 → v2)', () => {
    const event = shareEvents.decode(
      recorded('share-1', 'SnapshotDeleted', { snapshotId: 's-1', deletedAt: AT }, 1),
    );

    expect(event.metadata.schemaVersion).toBe(2);
    expect(event.data).toEqual({ snapshotId: 's-1', projectId: null, deletedAt: AT });
  });

  it('refuses a type its category does not know, naming the event', () => {
    const decode = () => shareEvents.decode(recorded('share-1', 'ShareTeleported', {}));

    expect(decode).toThrow(EventDecodeError);
    expect(decode).toThrow(
      'cannot decode ShareTeleported v1 at share-1@3 as a share event: unknown type',
    );
  });

  it("refuses another category's type", () => {
    expect(() => quotaEvents.decode(recorded('quota-p1', 'ShareScheduled', {}))).toThrow(
      'cannot decode ShareScheduled v1 at quota-p1@3 as a quota event: unknown type',
    );
  });

  it("refuses a version newer than the catalogue's", () => {
    const decode = () =>
      shareEvents.decode(recorded('share-1', 'SnapshotDeleted', { snapshotId: 's-1' }, 3));

    expect(decode).toThrow(
      'cannot decode SnapshotDeleted v3 at share-1@3 as a share event: newer version',
    );
  });
});
