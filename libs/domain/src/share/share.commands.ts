import type { AccessCommand } from './share-access.commands.js';
import type { PlacementCommand } from './share-placement.commands.js';
import type { FromSnapshotCommand } from './share-from-snapshot.commands.js';
import type { RecycleBinCommand } from './share-recycle-bin.commands.js';
import type { MigrationCommand } from './share-migration.commands.js';
import type { ReplicaCommand } from './share-replica.commands.js';
import type { AffinityCommand } from './share-affinity.commands.js';
import type { ResizeCommand } from './share-resize.commands.js';
import type { RevertCommand } from './share-revert.commands.js';
import type { ManageCommand } from './share-manage.commands.js';
import type { SnapshotManageCommand } from './share-snapshot-manage.commands.js';
import type { SnapshotAccessCommand } from './share-snapshot-access.commands.js';
import type { SnapshotCommand } from './share-snapshot.commands.js';
import type { ShareRequested } from './share.events.js';
import type { DriverOperation, ExportLocation, ShareStatus } from './share.types.js';

/** Commands on one share. Cross-aggregate checks (type exists, zone exists) happen before. */
export type ShareCommand =
  | SnapshotCommand
  | AccessCommand
  | ResizeCommand
  | PlacementCommand
  | FromSnapshotCommand
  | ReplicaCommand
  | AffinityCommand
  | RevertCommand
  | ManageCommand
  | SnapshotManageCommand
  | SnapshotAccessCommand
  | RecycleBinCommand
  | MigrationCommand
  | ({ type: 'RequestShare' } & ShareRequested['data'])
  | {
      type: 'ScheduleShareInstance';
      instanceId: string;
      host: string;
      availabilityZone: string;
      now: string;
    }
  | {
      type: 'FailShareInstanceScheduling';
      instanceId: string;
      message: string;
      detail: Record<string, unknown>;
      now: string;
    }
  | {
      type: 'StartDriverOperation';
      instanceId: string;
      operation: DriverOperation;
      commandId: string;
      host: string;
      /** For snapshot operations: the snapshot instance on this share instance. */
      snapshotId?: string;
      snapshotInstanceId?: string;
      now: string;
    }
  | {
      type: 'CompleteShareInstanceCreation';
      instanceId: string;
      commandId: string;
      exportLocations: ExportLocation[];
      now: string;
    }
  | {
      type: 'FailShareInstanceCreation';
      instanceId: string;
      commandId: string;
      message: string;
      now: string;
    }
  | {
      type: 'UpdateShare';
      name?: string | null;
      description?: string | null;
      isPublic?: boolean;
      now: string;
    }
  | {
      type: 'ChangeShareMetadata';
      set: Record<string, string>;
      unset: string[];
      now: string;
    }
  | {
      type: 'ResetShareStatus';
      status: ShareStatus;
      /** One instance (the share-instances API); the preferred instance when absent. */
      instanceId?: string;
      now: string;
    }
  | { type: 'DeleteShare'; force: boolean; now: string }
  | { type: 'CompleteShareInstanceDeletion'; instanceId: string; commandId: string; now: string }
  | {
      type: 'FailShareInstanceDeletion';
      instanceId: string;
      commandId: string;
      message: string;
      now: string;
    };

export type ShareCommandType = ShareCommand['type'];

/** The command of one type, for the named function that decides it. */
export type ShareCommandOf<T extends ShareCommandType> = Extract<ShareCommand, { type: T }>;
