import type { ReplicatedSnapshotCommand } from './share-replicated-snapshot.commands.js';
import type { SnapshotStatus } from './share-snapshot.state.js';
import type { ExportLocation } from './share.types.js';

export type SnapshotCommand =
  | ReplicatedSnapshotCommand
  | {
      type: 'RequestSnapshot';
      snapshotId: string;
      projectId: string;
      userId: string;
      name: string | null;
      description: string | null;
      /** Snapshot metadata (2.73). */
      metadata?: Record<string, string>;
      now: string;
    }
  | {
      type: 'CompleteSnapshotInstanceCreation';
      snapshotId: string;
      snapshotInstanceId: string;
      commandId: string;
      status: 'available' | 'creating';
      progress: string;
      providerLocation: string | null;
      /** Where clients mount the snapshot, as the driver reported. */
      exportLocations?: ExportLocation[];
      now: string;
    }
  | {
      type: 'FailSnapshotInstanceCreation';
      snapshotId: string;
      snapshotInstanceId: string;
      commandId: string;
      message: string;
      now: string;
    }
  | {
      type: 'UpdateSnapshot';
      snapshotId: string;
      name?: string | null;
      description?: string | null;
      now: string;
    }
  | {
      type: 'ChangeSnapshotMetadata';
      snapshotId: string;
      set: Record<string, string>;
      unset: string[];
      now: string;
    }
  | {
      type: 'ResetSnapshotStatus';
      snapshotId: string;
      status: SnapshotStatus;
      /** One instance (the snapshot instances API, 2.19); else the preferred one. */
      snapshotInstanceId?: string;
      now: string;
    }
  | { type: 'DeleteSnapshot'; snapshotId: string; force: boolean; now: string }
  | {
      type: 'CompleteSnapshotInstanceDeletion';
      snapshotId: string;
      snapshotInstanceId: string;
      commandId: string;
      now: string;
    }
  | {
      type: 'FailSnapshotInstanceDeletion';
      snapshotId: string;
      snapshotInstanceId: string;
      commandId: string;
      message: string;
      now: string;
    };
