import type {
  ExtendCheckDecision,
  ExtendCheckRequest,
  Placement,
  PlacementDecision,
  PlacementRequest,
  ReplicaPlacement,
  ReplicaPlacementRequest,
} from '#hawser/process-managers';
import type {
  AffinityConstraint,
  FilterScheduler,
  SchedulingRequest,
  ShareTypeRef,
} from '#hawser/scheduler';
import { schedulerDecisionDuration, secondsSince } from '#hawser/observability';
import { replicaSchedulingRequest, typeAvailabilityZones } from './replica-scheduling-request.js';
import {
  DEFAULT_FILTERS,
  DEFAULT_MAX_ATTEMPTS,
  exceededAttemptsMessage,
  NO_AFFINITY,
  noValidHostUserMessage,
  schedulingRequest,
  type PoolStateRegistry,
} from '#hawser/scheduler';

/**
 * Manila's default filters, then RetryFilter: a share or replica its pool's node handed back is
 * placed again without the pools that refused it (it passes every pool on a first attempt).
 */
export const SCHEDULER_FILTERS = [...DEFAULT_FILTERS, 'RetryFilter'];

/** How many kinds of request the scheduler prepares at start (half of the sets it keeps). */
const PRIMED_KINDS = 128;

/** Times and counts one placement decision by what was placed and whether it found a pool. */
const timed = (kind: 'share' | 'replica', decide: () => PlacementDecision): PlacementDecision => {
  const started = performance.now();
  const decision = decide();
  const outcome = decision.placed ? 'placed' : 'no_valid_host';
  schedulerDecisionDuration.observe({ kind, outcome }, secondsSince(started));
  return decision;
};

/** The scheduling workflows' placement ports over Manila's filter-weigher pipeline. */
export class FilterSchedulerPlacement implements Placement, ReplicaPlacement {
  constructor(
    private readonly registry: PoolStateRegistry,
    private readonly scheduler: FilterScheduler,
    /** Manila's scheduler_max_attempts: placements tried per share, the first included. */
    private readonly maxAttempts: number = DEFAULT_MAX_ATTEMPTS,
  ) {}

  place(
    request: PlacementRequest,
    attemptedHosts: readonly string[],
    affinity: AffinityConstraint = NO_AFFINITY,
  ): PlacementDecision {
    return timed('share', () => this.placeShare(request, attemptedHosts, affinity));
  }

  private placeShare(
    request: PlacementRequest,
    attemptedHosts: readonly string[],
    affinity: AffinityConstraint,
  ): PlacementDecision {
    const exceeded = this.attemptsExceeded(request.shareId, attemptedHosts);
    if (exceeded) return exceeded;
    // Without use_scheduler_creating_share_from_snapshot a clone has only its source's pool.
    if (request.snapshotSource?.placement === 'source-pool') {
      return {
        placed: false,
        message: `No valid host was found. The pool of snapshot ${request.snapshotSource.snapshotId} has no room for the new share.`,
        detail: { attemptedHosts, userMessage: noValidHostUserMessage(null) },
      };
    }
    return this.decide(
      schedulingRequest({
        shareId: request.instanceId,
        size: request.size,
        shareProto: request.shareProto,
        shareType: request.shareType,
        availabilityZone: request.availabilityZone,
        availabilityZones: typeAvailabilityZones(request.shareType.extraSpecs),
        snapshotId: request.snapshotId,
        attemptedHosts,
        sameHost: affinity.sameHost,
        differentHost: affinity.differentHost,
        onlyHost: request.schedulerHints?.onlyHost ?? null,
        snapshot: request.snapshotSource
          ? {
              id: request.snapshotSource.snapshotId,
              host: request.snapshotSource.host,
              shareAvailabilityZone: request.snapshotSource.availabilityZone,
            }
          : null,
      }),
    );
  }

  /**
   * Prepares, for new shares of each share type in each enabled protocol and each zone of the
   * live back ends (and none), the pools passing the filters that read only capabilities, zones
   * and liveness, so the first shares of a type do not pay for it. At most `limit` kinds, well
   * within what the scheduler keeps; reports keep them up to date afterwards.
   */
  primeShareTypes(
    shareTypes: readonly ShareTypeRef[],
    protocols: readonly string[],
    limit: number = PRIMED_KINDS,
  ): number {
    this.registry.refresh(Date.now());
    const zones = [null, ...this.registry.liveZones()];
    let primed = 0;
    for (const shareType of shareTypes) {
      for (const shareProto of protocols) {
        for (const availabilityZone of zones) {
          if (primed === limit) return primed;
          this.scheduler.prime(
            schedulingRequest({
              shareId: 'priming',
              size: 0,
              shareProto,
              shareType,
              availabilityZone,
              availabilityZones: typeAvailabilityZones(shareType.extraSpecs),
            }),
          );
          primed++;
        }
      }
    }
    return primed;
  }

  checkExtend(request: ExtendCheckRequest): ExtendCheckDecision {
    const check = this.scheduler.hostPassesExtendFilters(
      schedulingRequest({
        shareId: request.shareId,
        size: request.size,
        shareProto: request.shareProto,
        shareType: request.shareType,
        // The extend reserve (reserved_share_extend_percentage) applies, not the snapshot one.
        snapshotId: null,
        isShareExtend: true,
      }),
      request.host,
    );
    if (check.passes) return check;
    return {
      passes: false,
      message: check.message,
      detail: { lastFilter: check.lastFilter, userMessage: check.userMessage },
    };
  }

  checkMigrationHost(request: ExtendCheckRequest): ExtendCheckDecision {
    const check = this.scheduler.hostPassesFilters(
      schedulingRequest({
        shareId: request.shareId,
        size: request.size,
        shareProto: request.shareProto,
        shareType: request.shareType,
        availabilityZones: typeAvailabilityZones(request.shareType.extraSpecs),
        snapshotId: null,
      }),
      request.host,
    );
    if (check.passes) return check;
    return {
      passes: false,
      message: check.message,
      detail: { lastFilter: check.lastFilter, userMessage: check.userMessage },
    };
  }

  placeReplica(request: ReplicaPlacementRequest): PlacementDecision {
    // Manila names the share, not the replica, in the message (its request_spec's share_id).
    return timed(
      'replica',
      () =>
        this.attemptsExceeded(request.share.id, request.attemptedHosts) ??
        this.decide(replicaSchedulingRequest(request)),
    );
  }

  /**
   * Manila's _populate_retry_share: attempt n + 1 after n refusals, refused past the maximum
   * with a NoValidHost of no particular filter.
   */
  private attemptsExceeded(
    shareId: string,
    attemptedHosts: readonly string[],
  ): PlacementDecision | null {
    if (attemptedHosts.length < this.maxAttempts) return null;
    return {
      placed: false,
      message: exceededAttemptsMessage(this.maxAttempts, shareId),
      detail: { attemptedHosts, userMessage: noValidHostUserMessage(null) },
    };
  }

  private decide(request: SchedulingRequest): PlacementDecision {
    const { attemptedHosts } = request;
    const result = this.scheduler.schedule(request);
    if (result.outcome === 'placed') {
      const pool = this.registry.poolIndex(result.host);
      const zone = pool === undefined ? null : this.registry.availabilityZoneOf(pool);
      return { placed: true, host: result.host, availabilityZone: zone ?? '' };
    }
    return {
      placed: false,
      message: result.message,
      detail: {
        lastFilter: result.lastFilter,
        filters: result.filters,
        userMessage: result.userMessage,
        ...(attemptedHosts.length > 0 && { attemptedHosts }),
        ...(result.reason && { reason: result.reason }),
      },
    };
  }

  consume(host: string, instanceId: string, sizeGiB: number, placedAt: number): void {
    this.registry.consume(host, instanceId, sizeGiB, placedAt);
  }
}
