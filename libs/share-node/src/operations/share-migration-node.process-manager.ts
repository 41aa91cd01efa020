import { derivedId, SHARE_STREAM_PREFIX, shareIdOfStream } from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { ProcessManager } from '#hawser/process-managers';
import type { ShareDriverOperations } from './share-driver-operations.js';
import { shareEvents } from '../../../../eventstore/decoders.js';

/**
 * A share node's part of migrations: the destination's node starts the data move once the
 * scheduler accepted its pool; at completion the source's node deletes the source and the
 * destination's node applies the access rules moved to it; a cancelled or failed migration's
 * destination is deleted by its node. Operations on other nodes' instances claim nothing here.
 */
export const shareMigrationNodeProcessManager = (
  nodeName: string,
  operations: ShareDriverOperations,
): ProcessManager => ({
  name: `share-node-migration:${nodeName}`,
  filter: {
    streamPrefixes: [SHARE_STREAM_PREFIX],
    eventTypes: [
      'ShareMigrationHostAccepted',
      'ShareMigrationCompletionRequested',
      'ShareMigrationCancelRequested',
      'ShareMigrationFailed',
    ],
  },
  async handle(recorded: RecordedEvent): Promise<void> {
    const event = shareEvents.decode(recorded);
    const shareId = shareIdOfStream(event.streamId);
    const commandId = (purpose: string) => derivedId(event.id, purpose);
    const remove = (instanceId: string) =>
      operations.remove(shareId, instanceId, commandId(`delete_share:${instanceId}`), event.id);
    switch (event.type) {
      case 'ShareMigrationHostAccepted':
        await operations.migrations.start(shareId, commandId('migration_start'), event.id);
        return;
      case 'ShareMigrationCompletionRequested': {
        const { sourceInstanceId, destinationInstanceId } = event.data;
        await remove(sourceInstanceId);
        await operations.updateAccess(
          shareId,
          destinationInstanceId,
          commandId(`update_access:${destinationInstanceId}`),
          event.id,
        );
        return;
      }
      case 'ShareMigrationCancelRequested':
        await remove(event.data.destinationInstanceId);
        return;
      case 'ShareMigrationFailed':
        if (event.data.destinationCleanup) await remove(event.data.destinationInstanceId);
        return;
    }
  },
});
