import type { SnapshotInstanceOutcome } from './share-replicated-snapshot.events.js';

/** Outcomes the share nodes record for snapshots of shares with replicas (reference 5.8). */
export type ReplicatedSnapshotCommand =
  | {
      type: 'CompleteReplicatedSnapshotCreation';
      snapshotId: string;
      commandId: string;
      instances: SnapshotInstanceOutcome[];
      now: string;
    }
  | {
      type: 'FailReplicatedSnapshotCreation';
      snapshotId: string;
      commandId: string;
      message: string;
      now: string;
    }
  | {
      type: 'CompleteReplicatedSnapshotDeletion';
      snapshotId: string;
      commandId: string;
      /** The instances the driver reported `deleted`. */
      snapshotInstanceIds: string[];
      now: string;
    }
  | {
      type: 'FailReplicatedSnapshotDeletion';
      snapshotId: string;
      commandId: string;
      message: string;
      now: string;
    }
  /**
   * Manila's update_replicated_snapshot answer for one instance on a non-active replica: its
   * status, `not_found` (gone from the back end), or `failed` (the driver raised).
   */
  | {
      type: 'RefreshReplicaSnapshot';
      snapshotId: string;
      snapshotInstanceId: string;
      outcome:
        { status: SnapshotInstanceOutcome['status']; progress: string } | 'not_found' | 'failed';
      now: string;
    };

export const REPLICATED_SNAPSHOT_COMMAND_TYPES: readonly ReplicatedSnapshotCommand['type'][] = [
  'CompleteReplicatedSnapshotCreation',
  'FailReplicatedSnapshotCreation',
  'CompleteReplicatedSnapshotDeletion',
  'FailReplicatedSnapshotDeletion',
  'RefreshReplicaSnapshot',
];
