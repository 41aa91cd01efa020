/**
 * Where a share created from a snapshot comes from, resolved when it is requested and kept in
 * its stream, so the scheduler and the share node need not read the source share again.
 */
export interface SnapshotSource {
  readonly snapshotId: string;
  /** The snapshot instance copied (on the source's active replica, reference 4.5). */
  readonly snapshotInstanceId: string;
  readonly shareId: string;
  /** The source share's instance that holds that snapshot instance. */
  readonly shareInstanceId: string;
  /** Its pool host string (Manila's `snapshot_host`). */
  readonly host: string;
  readonly availabilityZone: string | null;
  /** The snapshot's size, GiB: the new share may not be smaller. */
  readonly size: number;
  /**
   * `source-pool`: the share goes to the source's pool without the scheduler
   * (use_scheduler_creating_share_from_snapshot off); `scheduler`: the scheduler places it.
   */
  readonly placement: 'source-pool' | 'scheduler';
}
