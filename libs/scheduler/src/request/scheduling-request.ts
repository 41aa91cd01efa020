import type { ExtraSpecs } from '../extra-specs/capability-requirements.js';

/** A share named in a same_host/different_host hint, with the hosts of all its instances. */
export interface ReferencedShare {
  readonly shareId: string;
  /**
   * Pool host strings of every instance (replicas included; an unscheduled one as '').
   * Empty when the share does not exist, is not visible, or has no instance: Manila then
   * stops scheduling with the affinity filter as the last filter.
   */
  readonly instanceHosts: readonly string[];
}

/** The snapshot a share is created from, when the scheduler places clones. */
export interface SourceSnapshot {
  readonly id: string;
  /** Pool host string of the source share's instance (`request_spec.snapshot_host`). */
  readonly host: string;
  /** AZ name of the source share (HostAffinityWeigher). */
  readonly shareAvailabilityZone: string | null;
}

export interface ShareTypeRef {
  readonly id: string;
  readonly name: string;
  /** Raw, as stored (`"True"`, `"<is> True"`); the scheduler rewrites its own copy. */
  readonly extraSpecs: ExtraSpecs;
}

/** Everything one placement decision needs, with Manila's request_spec/filter_properties meaning. */
export interface SchedulingRequest {
  /** Id of the instance being placed (share instance or replica): placements are idempotent by it. */
  readonly shareId: string;
  /** GiB. For an extend, the share's current size (Manila's quirk, reference 6.9). */
  readonly size: number;
  readonly shareProto: string | null;
  readonly shareType: ShareTypeRef;
  /** Requested AZ name, or null. */
  readonly availabilityZone: string | null;
  /** AZ names allowed by the share type's `availability_zones` spec; empty means any. */
  readonly availabilityZones: readonly string[];
  /** The share's snapshot_id: selects reserved_snapshot_percentage (set for clones). */
  readonly snapshotId: string | null;
  /** Set when creating from a snapshot through the scheduler (CreateFromSnapshot, HostAffinity). */
  readonly snapshot: SourceSnapshot | null;
  /** Replica creation: the active replica's pool host string. */
  readonly activeReplicaHost: string | null;
  /** Replica creation: pool host strings of every existing replica. */
  readonly allReplicaHosts: readonly string[];
  /** same_host hint, resolved; null when absent. */
  readonly sameHost: readonly ReferencedShare[] | null;
  /** different_host hint, resolved; null when absent. */
  readonly differentHost: readonly ReferencedShare[] | null;
  /** only_host hint; the caller passes it for admin contexts only. */
  readonly onlyHost: string | null;
  /** Hosts of earlier attempts (Retry / IgnoreAttemptedHosts filters). */
  readonly attemptedHosts: readonly string[];
  readonly isShareExtend: boolean;
  /** JsonFilter's `query` hint: a JSON string. */
  readonly jsonQuery: string | null;
  /** AZ name -> whether the request needs multiple subnets there (AvailabilityZoneFilter). */
  readonly multipleSubnetSupportByZone: Readonly<Record<string, boolean>>;
  /** Pools holding a share server this share can use (PoolWeigher). */
  readonly shareServerPools: readonly string[];
  /** `share.*` in filter/goodness functions (Manila's resource_properties). */
  readonly shareProperties: Readonly<Record<string, unknown>>;
}

export type SchedulingRequestInput = Pick<SchedulingRequest, 'shareId' | 'size' | 'shareType'> &
  Partial<Omit<SchedulingRequest, 'shareId' | 'size' | 'shareType'>>;

/**
 * Fills the optional parts of a request with their neutral values. `share.*` defaults to
 * id, size, share_proto, share_type_id, availability_zone and snapshot_id.
 */
export const schedulingRequest = (input: SchedulingRequestInput): SchedulingRequest => {
  if (!Number.isFinite(input.size) || input.size < 0)
    throw new RangeError(`Invalid share size ${input.size}`);
  const snapshot = input.snapshot ?? null;
  const snapshotId = input.snapshotId !== undefined ? input.snapshotId : (snapshot?.id ?? null);
  const shareProto = input.shareProto ?? null;
  const availabilityZone = input.availabilityZone ?? null;
  return {
    shareId: input.shareId,
    size: input.size,
    shareProto,
    shareType: input.shareType,
    availabilityZone,
    availabilityZones: input.availabilityZones ?? [],
    snapshotId,
    snapshot,
    activeReplicaHost: input.activeReplicaHost ?? null,
    allReplicaHosts: input.allReplicaHosts ?? [],
    sameHost: input.sameHost ?? null,
    differentHost: input.differentHost ?? null,
    onlyHost: input.onlyHost ?? null,
    attemptedHosts: input.attemptedHosts ?? [],
    isShareExtend: input.isShareExtend ?? false,
    jsonQuery: input.jsonQuery ?? null,
    multipleSubnetSupportByZone: input.multipleSubnetSupportByZone ?? {},
    shareServerPools: input.shareServerPools ?? [],
    shareProperties: input.shareProperties ?? {
      id: input.shareId,
      size: input.size,
      share_proto: shareProto,
      share_type_id: input.shareType.id,
      availability_zone: availabilityZone,
      snapshot_id: snapshotId,
    },
  };
};
