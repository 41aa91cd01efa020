import type { ReplicaPlacementRequest } from '#hawser/process-managers';
import { schedulingRequest, type SchedulingRequest } from '#hawser/scheduler';

/** The share type's `availability_zones` spec as a list; empty means any zone. */
export const typeAvailabilityZones = (extraSpecs: Readonly<Record<string, string>>): string[] =>
  (extraSpecs.availability_zones ?? '')
    .split(',')
    .map((zone) => zone.trim())
    .filter(Boolean);

/**
 * Manila's request_spec for a new replica (reference 5.1 step 12): the share's type and size,
 * the requested zone, the active replica's host (its replication domain is the one to stay in)
 * and every replica's host (no two replicas on one pool). This is the one place a replica's
 * scheduling request is built: share-level scheduler hints are re-applied here too, and the
 * pools that refused the replica are left out (retry.hosts). The share's snapshot_id goes in as
 * Manila's request_spec carries it, so a replica of a clone keeps reserved_snapshot_percentage
 * free, as the share node's own check does.
 */
export const replicaSchedulingRequest = ({
  share,
  replica,
  affinity,
  onlyHost,
  attemptedHosts,
}: ReplicaPlacementRequest): SchedulingRequest => {
  const active = share.instances.find(
    (i) => i.replicaState === 'active' && i.status === 'available',
  );
  const shareType = share.shareType ?? { id: '', name: '', extraSpecs: {} };
  return schedulingRequest({
    shareId: replica.id,
    size: share.size,
    shareProto: share.shareProto,
    shareType,
    availabilityZone: replica.availabilityZone,
    availabilityZones: typeAvailabilityZones(shareType.extraSpecs),
    activeReplicaHost: active?.host ?? null,
    allReplicaHosts: share.instances.map((i) => i.host),
    sameHost: affinity?.sameHost ?? null,
    differentHost: affinity?.differentHost ?? null,
    onlyHost: onlyHost ?? null,
    snapshotId: share.snapshotId,
    attemptedHosts,
  });
};
