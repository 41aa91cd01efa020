/** The recycle bin's commands (2.69). */
export type RecycleBinCommand =
  | {
      type: 'SoftDeleteShare';
      /** Now plus the retention time (Manila's soft_deleted_share_retention_time). */
      scheduledToBeDeletedAt: string;
      now: string;
    }
  | { type: 'RestoreShare'; now: string }
  /** The recycle bin's timer: a share whose retention has passed is deleted. */
  | { type: 'DeleteExpiredShare'; now: string };
