import type { SnapshotDeleted } from '#hawser/domain';

/** SnapshotDeleted v1: the requesting project was added later as an optional field. */
export interface SnapshotDeletedV1 {
  readonly snapshotId: string;
  readonly projectId?: string;
  readonly deletedAt: string;
}

/**
 * v1 → v2: the project becomes explicit, null where v1 did not record it (events written before
 * the field existed); readers then look the project up in the share's history.
 */
export const snapshotDeletedV2 = (data: unknown): SnapshotDeleted['data'] => {
  // Stored v1 data: its shape is the v1 type above, which the catalogue's version vouches for.
  const v1 = data as SnapshotDeletedV1;
  return { snapshotId: v1.snapshotId, projectId: v1.projectId ?? null, deletedAt: v1.deletedAt };
};
