import type { QuotaResource } from '#hawser/domain';
import type { ViewContext } from './view-context.js';
import { visibleQuotaResources } from './quota-set.view.js';

/** Manila's names for a resource's limit and usage in the absolute limits. */
const ABSOLUTE_NAMES: Partial<Record<QuotaResource, readonly [string, string]>> = {
  gigabytes: ['maxTotalShareGigabytes', 'totalShareGigabytesUsed'],
  snapshot_gigabytes: ['maxTotalSnapshotGigabytes', 'totalSnapshotGigabytesUsed'],
  shares: ['maxTotalShares', 'totalSharesUsed'],
  snapshots: ['maxTotalShareSnapshots', 'totalShareSnapshotsUsed'],
  share_networks: ['maxTotalShareNetworks', 'totalShareNetworksUsed'],
  share_groups: ['maxTotalShareGroups', 'totalShareGroupsUsed'],
  share_group_snapshots: ['maxTotalShareGroupSnapshots', 'totalShareGroupSnapshotsUsed'],
  share_replicas: ['maxTotalShareReplicas', 'totalShareReplicasUsed'],
  replica_gigabytes: ['maxTotalReplicaGigabytes', 'totalReplicaGigabytesUsed'],
};

/**
 * GET /limits: the project's quota limits and usage under Manila's absolute-limit names (groups
 * from 2.40, replicas from 2.53, as the quota sets show them); no rate limits are configured.
 */
export const limitsView = (
  limits: Readonly<Record<QuotaResource, number>>,
  inUse: Readonly<Record<QuotaResource, number>>,
  ctx: ViewContext,
) => {
  const absolute: Record<string, number> = {};
  for (const resource of visibleQuotaResources(ctx)) {
    const names = ABSOLUTE_NAMES[resource];
    if (!names) continue;
    absolute[names[0]] = limits[resource];
    absolute[names[1]] = inUse[resource];
  }
  return { limits: { rate: [], absolute } };
};
