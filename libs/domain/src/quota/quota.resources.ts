/** The resources Manila counts per project (reference 1.10). */
export const QUOTA_RESOURCES = [
  'shares',
  'gigabytes',
  'snapshots',
  'snapshot_gigabytes',
  'share_networks',
  'share_groups',
  'share_group_snapshots',
  'share_replicas',
  'replica_gigabytes',
  'per_share_gigabytes',
] as const;

export type QuotaResource = (typeof QUOTA_RESOURCES)[number];

/** Limits per resource; -1 is unlimited. */
export type QuotaLimits = Readonly<Record<QuotaResource, number>>;

/** Amounts reserved per resource; resources not named are not touched. */
export type QuotaDeltas = Readonly<Partial<Record<QuotaResource, number>>>;

/** Limits set for one scope; a resource not named falls back to the wider scope's. */
export type QuotaLimitSet = Readonly<Partial<Record<QuotaResource, number>>>;

/**
 * Who a reservation counts against besides the project (Manila's user and share type quotas):
 * the user that owns the holder and its share type. Absent in events written before.
 */
export interface QuotaSubjects {
  readonly userId?: string;
  readonly shareTypeId?: string;
}

/** Which limits an admin sets: the project's, one user's in it, or one share type's in it. */
export type QuotaScope =
  | { readonly kind: 'project' }
  | { readonly kind: 'user'; readonly userId: string }
  | { readonly kind: 'share_type'; readonly shareTypeId: string };

/** What a reservation is for: the kind of resource that holds it (a share, a snapshot, ...). */
export type QuotaHolderKind = 'share' | 'snapshot' | 'share_replica' | 'share_group';

/** Manila's configured defaults (quota.py). */
export const MANILA_DEFAULT_QUOTAS: QuotaLimits = {
  shares: 50,
  gigabytes: 1000,
  snapshots: 50,
  snapshot_gigabytes: 1000,
  share_networks: 10,
  share_groups: 50,
  share_group_snapshots: 50,
  share_replicas: 100,
  replica_gigabytes: 1000,
  per_share_gigabytes: -1,
};

export const isQuotaResource = (key: string): key is QuotaResource =>
  (QUOTA_RESOURCES as readonly string[]).includes(key);

/**
 * The deltas of creating a share (reference 5.9): a replication-capable type also counts the
 * active instance as a replica.
 */
export const shareCreationDeltas = (size: number, replicated: boolean): QuotaDeltas => ({
  shares: 1,
  gigabytes: size,
  ...(replicated && { share_replicas: 1, replica_gigabytes: size }),
});

/** The deltas of creating a snapshot of a share of `shareSize` GiB (reference 5.9). */
export const snapshotCreationDeltas = (shareSize: number): QuotaDeltas => ({
  snapshots: 1,
  snapshot_gigabytes: shareSize,
});

/**
 * The deltas of resizing a share by `sizeChange` GiB (negative for a shrink), reference 5.9: a
 * replicated share also counts the change once per replica, the active one included.
 */
export const shareResizeDeltas = (
  sizeChange: number,
  replicated: boolean,
  replicaCount: number,
): QuotaDeltas => ({
  gigabytes: sizeChange,
  ...(replicated && { replica_gigabytes: sizeChange * replicaCount }),
});
