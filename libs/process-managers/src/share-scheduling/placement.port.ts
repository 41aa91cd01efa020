import type { RequestedShareType, ShareRequested } from '#hawser/domain';
import type { AffinityConstraint } from '#hawser/scheduler';

/** What to place: the share as requested (type, size, zone, hints). */
export type PlacementRequest = ShareRequested['data'];

export type PlacementDecision =
  | { readonly placed: true; readonly host: string; readonly availabilityZone: string }
  | {
      readonly placed: false;
      /** The message the user sees on the share (Manila's "No valid host was found. ..."). */
      readonly message: string;
      /** Which filter removed how many pools, for operators. */
      readonly detail: Record<string, unknown>;
    };

/** A non-forced extend to check on the share's own pool (reference 6.9). */
export interface ExtendCheckRequest {
  readonly shareId: string;
  readonly instanceId: string;
  /** The pool the share is on. */
  readonly host: string;
  /** The share's current size: Manila's filters see this, not the new size (a quirk). */
  readonly size: number;
  readonly shareProto: string;
  readonly shareType: RequestedShareType;
}

export type ExtendCheckDecision =
  | { readonly passes: true }
  | {
      readonly passes: false;
      readonly message: string;
      /** `lastFilter` and the user message (action 008, extend; detail by filter). */
      readonly detail: Record<string, unknown>;
    };

/** The scheduler as the scheduling process manager sees it. */
export interface Placement {
  /**
   * `attemptedHosts`: pools whose node refused this instance before (Manila's retry.hosts); the
   * placement avoids them, and past the maximum number of attempts fails the share.
   * `affinity`: the hints resolved to hosts (`AffinityHints`); none when left out.
   */
  place(
    request: PlacementRequest,
    attemptedHosts: readonly string[],
    affinity?: AffinityConstraint,
  ): PlacementDecision;
  /** Whether the share's pool passes the extend filters (Manila's host_passes_filters). */
  checkExtend(request: ExtendCheckRequest): ExtendCheckDecision;
  /** Whether a migration's destination pool passes the default filters (hints checked before). */
  checkMigrationHost(request: ExtendCheckRequest): ExtendCheckDecision;
  /**
   * A placement was recorded (by this or another scheduler): debit the pool, once per instance,
   * unless the pool reported after `placedAt` (ms), which already counts it.
   */
  consume(host: string, instanceId: string, sizeGiB: number, placedAt: number): void;
}
