import type { SnapshotExportLocationDocument } from './snapshot-export-location.view.js';

/** One snapshot instance as the snapshot instances API (2.19+, admin) shows it. */
export interface SnapshotInstanceDocument {
  id: string;
  snapshot_id: string;
  status: string;
  created_at: string;
  updated_at: string;
  share_id: string;
  share_instance_id: string;
  progress: string;
  provider_location: string | null;
  /** Where a mountable snapshot's instance is mounted (2.32); not part of the views. */
  export_locations: SnapshotExportLocationDocument[];
}

/** Manila's api/views/share_snapshot_instances.py `summary`: the same at every microversion. */
export const snapshotInstanceSummaryView = (doc: SnapshotInstanceDocument) => ({
  id: doc.id,
  snapshot_id: doc.snapshot_id,
  status: doc.status,
});

/** Manila's `detail`. */
export const snapshotInstanceDetailView = (doc: SnapshotInstanceDocument) => ({
  id: doc.id,
  snapshot_id: doc.snapshot_id,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  status: doc.status,
  share_id: doc.share_id,
  share_instance_id: doc.share_instance_id,
  progress: doc.progress,
  provider_location: doc.provider_location,
});
