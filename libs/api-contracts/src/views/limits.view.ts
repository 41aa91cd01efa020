import type { QuotaResource } from '#hawser/domain';
import { since, type ViewContext } from './view-context.js';

/** Manila's names for a resource's limit and usage, and the microversion showing them. */
const ABSOLUTE_NAMES: readonly (readonly [QuotaResource, string, string, string])[] = [
  ['gigabytes', 'maxTotalShareGigabytes', 'totalShareGigabytesUsed', '2.0'],
  ['snapshot_gigabytes', 'maxTotalSnapshotGigabytes', 'totalSnapshotGigabytesUsed', '2.0'],
  ['shares', 'maxTotalShares', 'totalSharesUsed', '2.0'],
  ['snapshots', 'maxTotalShareSnapshots', 'totalShareSnapshotsUsed', '2.0'],
  ['share_networks', 'maxTotalShareNetworks', 'totalShareNetworksUsed', '2.0'],
  ['share_replicas', 'maxTotalShareReplicas', 'totalShareReplicasUsed', '2.53'],
  ['replica_gigabytes', 'maxTotalReplicaGigabytes', 'totalReplicaGigabytesUsed', '2.53'],
  ['share_groups', 'maxTotalShareGroups', 'totalShareGroupsUsed', '2.58'],
  ['share_group_snapshots', 'maxTotalShareGroupSnapshots', 'totalShareGroupSnapshotsUsed', '2.58'],
];

/**
 * GET /limits (`api/views/limits.py`): the project's quota limits and usage under Manila's
 * absolute-limit names, replicas from 2.53 and share groups from 2.58 (later than the quota
 * sets show them, 2.40); no rate limits are configured.
 */
export const limitsView = (
  limits: Readonly<Record<QuotaResource, number>>,
  inUse: Readonly<Record<QuotaResource, number>>,
  ctx: ViewContext,
) => {
  const absolute: Record<string, number> = {};
  for (const [resource, limitName, usedName, from] of ABSOLUTE_NAMES) {
    if (!since(ctx, from)) continue;
    absolute[limitName] = limits[resource];
    absolute[usedName] = inUse[resource];
  }
  return { limits: { rate: [], absolute } };
};
