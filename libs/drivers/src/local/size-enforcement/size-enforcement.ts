/**
 * How a pool holds shares to their size. One strategy per pool, chosen at start-up by
 * `detectSizeEnforcement` from what the pool's file system offers. Every share directory of
 * the pool is created, resized, measured and removed through it, so a strategy can make the
 * directory whatever its file system limits (a btrfs subvolume, a project-quota tree).
 */
export interface SizeEnforcementStrategy {
  /** Description of the pool's file system and why this strategy applies. */
  readonly description: SizeEnforcement;

  /**
   * Makes `dir` an empty share directory limited to `sizeGiB`. Idempotent: a directory left
   * half-made by a crash (created, not yet limited) is finished, an existing one re-limited.
   */
  prepare(dir: string, sizeGiB: number): Promise<void>;

  /** Changes the limit of a prepared directory (extend, shrink, re-applied at start-up). */
  setLimit(dir: string, sizeGiB: number): Promise<void>;

  /** Bytes the share holds, and whether its limit is enforced for writers. */
  usage(dir: string): Promise<ShareUsageFigures>;

  /** Removes a share or snapshot directory and whatever limited it; missing is not an error. */
  remove(dir: string): Promise<void>;

  /**
   * The file system's own read-only point-in-time copy of a share directory into `target`,
   * where it has one (btrfs snapshots); without it the driver reflinks or copies.
   */
  snapshot?(source: string, target: string): Promise<void>;

  /**
   * A writable share directory at `target` made from a snapshot taken by `snapshot`, limited to
   * `sizeGiB`; without it the driver prepares the directory and copies into it.
   */
  cloneShare?(snapshotDir: string, target: string, sizeGiB: number): Promise<void>;
}

export type SizeEnforcementMode = 'enforced' | 'reported';

/** What `LocalShareDriver.sizeEnforcement(pool)` answers. */
export interface SizeEnforcement {
  /** `reported`, `btrfs-qgroup`, ... */
  readonly strategy: string;
  /** `enforced`: writes past a share's size fail (EDQUOT, on XFS ENOSPC); `reported`: succeed. */
  readonly mode: SizeEnforcementMode;
  readonly fileSystem: string;
  readonly mountPoint: string;
  /** Whether the file system is mounted with project quotas (ext4/xfs `prjquota`). */
  readonly projectQuotasMounted: boolean;
  readonly reason: string;
}

export interface ShareUsageFigures {
  readonly usedBytes: number;
  /** False for a share the strategy does not limit (e.g. made before quotas were enabled). */
  readonly enforced: boolean;
}

export const GIB = 1024 ** 3;
