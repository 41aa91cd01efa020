import {
  derivedId,
  SHARE_STREAM_PREFIX,
  type ShareDeletionRequested,
  type ShareScheduled,
} from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { ProcessManager } from '../runtime/process-manager.js';
import type { ShareDriverOperations } from './share-driver-operations.js';

/**
 * A share node's reactions to the log: a share scheduled onto one of its pools is created, a
 * deletion of one of its instances is carried out. Command ids derive from the causing event,
 * so a replay after a crash claims nothing twice.
 */
export const shareNodeOperationsProcessManager = (
  nodeName: string,
  operations: ShareDriverOperations,
): ProcessManager => ({
  name: `share-node:${nodeName}`,
  filter: {
    streamPrefixes: [SHARE_STREAM_PREFIX],
    eventTypes: ['ShareScheduled', 'ShareDeletionRequested'],
  },
  async handle(event: RecordedEvent): Promise<void> {
    const shareId = event.streamId.slice(SHARE_STREAM_PREFIX.length);
    if (event.type === 'ShareScheduled') {
      const data = event.data as ShareScheduled['data'];
      if (!operations.driverFor(data.host)) return;
      await operations.create(shareId, data.instanceId, derivedId(event.id, 'create_share'), event.id);
      return;
    }
    const data = event.data as ShareDeletionRequested['data'];
    for (const instanceId of data.instanceIds) {
      await operations.remove(
        shareId,
        instanceId,
        derivedId(event.id, `delete_share:${instanceId}`),
        event.id,
      );
    }
  },
});
