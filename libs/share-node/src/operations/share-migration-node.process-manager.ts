import { faultInjectionPoint } from '#hawser/application';
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
      'ShareMigrationReadOnlyAccessQueued',
      'ShareAccessUpdated',
      'ShareAccessUpdateFailed',
      'ShareMigrationCompletionRequested',
      'ShareMigrationCancelRequested',
      'ShareMigrationCancelled',
      'ShareMigrationFailed',
    ],
  },
  async handle(recorded: RecordedEvent): Promise<void> {
    const event = shareEvents.decode(recorded);
    const shareId = shareIdOfStream(event.streamId);
    const commandId = (purpose: string) => derivedId(event.id, purpose);
    const remove = (instanceId: string) =>
      operations.remove(shareId, instanceId, commandId(`delete_share:${instanceId}`), event.id);
    /** The source's rules applied (read-only, or back to their levels), then the copy. */
    const followAccess = async () => {
      const steps = await operations.migrations.accessSteps(shareId, event.id);
      for (const instanceId of steps.update) {
        const id = commandId(`update_access:${instanceId}`);
        await operations.updateAccess(shareId, instanceId, id, event.id);
      }
      if (steps.start) await operations.migrations.start(shareId, event.id);
    };
    switch (event.type) {
      case 'ShareMigrationHostAccepted':
        await operations.migrations.start(shareId, event.id);
        return;
      case 'ShareMigrationReadOnlyAccessQueued':
      case 'ShareMigrationCancelled':
        await followAccess();
        return;
      case 'ShareAccessUpdated':
      case 'ShareAccessUpdateFailed':
        // Only a migration's access steps; other rule changes follow their own requests.
        if (await operations.migrations.underway(shareId)) await followAccess();
        return;
      case 'ShareMigrationCompletionRequested': {
        const { sourceInstanceId, destinationInstanceId } = event.data;
        // Crash tests stop the process here: the share switched, its source not yet deleted.
        faultInjectionPoint('before-source-deleted:migration');
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
        await followAccess();
        return;
    }
  },
});
