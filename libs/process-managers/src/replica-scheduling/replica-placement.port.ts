import type { ShareInstanceState, ActiveShare } from '#hawser/domain';
import type { AffinityConstraint } from '#hawser/scheduler';
import type { PlacementDecision } from '../share-scheduling/placement.port.js';

/** What to place: a new replica of a share, with the share as it is now. */
export interface ReplicaPlacementRequest {
  readonly share: ActiveShare;
  readonly replica: ShareInstanceState;
  /** The share's scheduler hints as its metadata records them, resolved (`AffinityHints`). */
  readonly affinity?: AffinityConstraint;
  /** An admin's `only_host`: the one pool to consider; the affinity hints are then not given. */
  readonly onlyHost?: string;
  /**
   * Pools whose node refused this replica before (Manila's retry.hosts): the placement avoids
   * them, and past the maximum number of attempts fails the replica.
   */
  readonly attemptedHosts: readonly string[];
}

/** The scheduler as the replica scheduling process manager sees it. */
export interface ReplicaPlacement {
  placeReplica(request: ReplicaPlacementRequest): PlacementDecision;
  consume(host: string, instanceId: string, sizeGiB: number, placedAt: number): void;
}
