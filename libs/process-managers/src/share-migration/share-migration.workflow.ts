import {
  evolveShare,
  initialShareState,
  isActiveShare,
  SHARE_STREAM_PREFIX,
  shareIdOfStream,
  type MigrationCommand,
  type ShareEvent,
  type ShareState,
} from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import type { Unstamped, Workflow } from '../runtime/workflow.js';
import type { ExtendCheckRequest } from '../share-scheduling/placement.port.js';

export type ShareMigrationOutput =
  | {
      /** Ask the scheduler's filters about the destination (Manila's migrate_share_to_host). */
      readonly type: 'CheckMigrationHost';
      readonly check: ExtendCheckRequest;
    }
  | {
      /** A step of the migration for the share's stream, its id derived from the cause. */
      readonly type: 'RecordMigrationStep';
      readonly command: Unstamped<MigrationCommand>;
      readonly purpose: string;
    };

type Input = Decoded<ShareEvent>;

/**
 * The migration's saga on the share's stream:
 * - ShareMigrationStarted: the scheduler checks the destination pool with its filters at the
 *   share's size and type (the new type if one is given); the hints were checked by the API.
 * - ShareInstanceDeleted: the source gone after `migration_complete` ends the migration
 *   (migration_success); the destination gone after `migration_cancel` ends it cancelled.
 * Every step is idempotent by the share's state, so a replay records nothing twice.
 */
export const shareMigrationWorkflow: Workflow<Input, ShareState, ShareMigrationOutput, ShareEvent> =
  {
    name: 'share-migration',
    filter: {
      streamPrefixes: [SHARE_STREAM_PREFIX],
      eventTypes: ['ShareMigrationStarted', 'ShareInstanceDeleted'],
    },
    initialState: initialShareState,
    evolve: evolveShare,
    readsHistory: () => true,
    decide: (event, share) => {
      if (!isActiveShare(share) || !share.migration) return [];
      const migration = share.migration;
      switch (event.type) {
        case 'ShareMigrationStarted': {
          if (share.taskState !== 'migration_starting') return [];
          const shareType = migration.newShareType?.shareType ?? share.shareType;
          if (!shareType) return [];
          const check: ExtendCheckRequest = {
            shareId: shareIdOfStream(event.streamId),
            instanceId: migration.destinationInstanceId,
            host: migration.destinationHost,
            size: share.size,
            shareProto: share.shareProto,
            shareType,
          };
          return [{ type: 'CheckMigrationHost', check }];
        }
        case 'ShareInstanceDeleted': {
          const { instanceId } = event.data;
          if (
            share.taskState === 'migration_completing' &&
            instanceId === migration.sourceInstanceId
          ) {
            return [step({ type: 'RecordShareMigrationCompleted' }, 'migration-completed')];
          }
          if (
            share.taskState === 'migration_cancel_in_progress' &&
            instanceId === migration.destinationInstanceId
          ) {
            return [step({ type: 'RecordShareMigrationCancelled' }, 'migration-cancelled')];
          }
          return [];
        }
        default:
          return [];
      }
    },
  };

const step = (command: Unstamped<MigrationCommand>, purpose: string): ShareMigrationOutput => ({
  type: 'RecordMigrationStep',
  command,
  purpose,
});
