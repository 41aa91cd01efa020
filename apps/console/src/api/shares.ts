/** The REST views the console reads (Manila's field names, at the console's microversion). */
export interface ShareView {
  readonly id: string;
  readonly name: string | null;
  readonly status: string;
  readonly progress: string | null;
  readonly size: number;
  readonly share_proto: string;
  readonly availability_zone: string | null;
  readonly share_type_name: string | null;
  readonly project_id: string;
  readonly created_at: string;
}

export interface ShareTypeView {
  readonly id: string;
  readonly name: string;
}

export interface ZoneView {
  readonly name: string;
}

export interface SnapshotView {
  readonly id: string;
  readonly name: string | null;
  readonly status: string;
  readonly share_id: string;
  readonly size: number;
}

export interface ShareChange {
  readonly shareId: string;
  readonly status: string;
  readonly progress: string | null;
}

export const PROJECT_SHARES_CHANGED = `subscription ($projectId: ID) {
  projectSharesChanged(projectId: $projectId) { shareId status progress }
}`;

export const SHARE_CHANGED = `subscription ($id: ID!) {
  shareChanged(id: $id) { shareId status progress }
}`;

export const STATUSES = [
  'available',
  'creating',
  'creating_from_snapshot',
  'deleting',
  'error',
  'error_deleting',
  'extending',
  'shrinking',
  'replication_change',
] as const;
