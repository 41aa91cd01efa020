import type { ExportLocation } from './share.types.js';

interface SnapshotClaim {
  snapshotId: string;
  snapshotInstanceId: string;
  commandId: string;
}

/** Snapshot manage and unmanage (DHSS=False, 2.12+): adopted from, or handed back to, the back end. */
export type SnapshotManageCommand =
  | {
      type: 'ManageSnapshot';
      snapshotId: string;
      projectId: string;
      userId: string;
      name: string | null;
      description: string | null;
      metadata: Record<string, string>;
      providerLocation: string;
      driverOptions: Record<string, string>;
      now: string;
    }
  | ({
      type: 'CompleteSnapshotManage';
      size: number | null;
      providerLocation: string;
      exportLocations: ExportLocation[];
      now: string;
    } & SnapshotClaim)
  | ({ type: 'FailSnapshotManage'; message: string; now: string } & SnapshotClaim)
  | { type: 'UnmanageSnapshot'; snapshotId: string; now: string }
  | ({ type: 'CompleteSnapshotUnmanage'; now: string } & SnapshotClaim)
  | ({ type: 'FailSnapshotUnmanage'; message: string; now: string } & SnapshotClaim);
