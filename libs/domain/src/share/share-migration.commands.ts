import type {
  HintsOverride,
  MigrationMethod,
  MigrationOptions,
  MigrationShareType,
  TaskState,
} from './share-migration.types.js';
import type { ExportLocation } from './share.types.js';

/** Commands of a share migration (Manila's migration_* actions and their steps). */
export type MigrationCommand =
  | {
      /** `migration_start`: the destination and the flags, checked by the API before. */
      type: 'StartShareMigration';
      destinationInstanceId: string;
      host: string;
      availabilityZone: string;
      options: MigrationOptions;
      newShareType: MigrationShareType | null;
      hintsOverride: HintsOverride | null;
      now: string;
    }
  | {
      /** The scheduler's filters passed the destination (Manila's migrate_share_to_host). */
      type: 'AcceptShareMigrationHost';
      now: string;
    }
  | {
      /** The destination's node chose how the data moves, before it calls its driver. */
      type: 'ChooseShareMigrationMethod';
      method: MigrationMethod;
      /** Whether the copy cannot keep the share writable: the source's rules go read-only. */
      castRulesToReadonly: boolean;
      now: string;
    }
  | {
      /** What the destination driver answered to the start of the copy (the claim's outcome). */
      type: 'RecordShareMigrationCopy';
      commandId: string;
      status: 'copying' | 'done' | 'error';
      progress: number;
      exportLocations: ExportLocation[];
      message: string | null;
      now: string;
    }
  | {
      /** A poll of the copy: more done, done, or failed. */
      type: 'RecordShareMigrationProgress';
      pollId: string;
      status: 'copying' | 'done' | 'error';
      progress: number;
      exportLocations: ExportLocation[];
      message: string | null;
      now: string;
    }
  | { type: 'CompleteShareMigration'; now: string }
  | {
      /** The source instance is gone: the completion is over. */
      type: 'RecordShareMigrationCompleted';
      now: string;
    }
  | { type: 'CancelShareMigration'; now: string }
  | {
      /** The destination instance is gone: the cancellation is over. */
      type: 'RecordShareMigrationCancelled';
      now: string;
    }
  | { type: 'FailShareMigration'; message: string; now: string }
  | { type: 'ResetShareTaskState'; taskState: TaskState | null; now: string };
