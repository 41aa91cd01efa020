import type { PoolView } from '../pool-state/pool-view.js';
import type { NoValidHostUserMessage } from './no-valid-host.js';

/** How many pools a filter removed, in pipeline order. */
export interface FilterOutcome {
  readonly filter: string;
  readonly before: number;
  readonly removed: number;
}

/** One weigher's part in the winner's total weight. */
export interface WeightPart {
  readonly weigher: string;
  readonly multiplier: number;
  readonly raw: number;
  /** 0..1 after Manila's normalisation over the candidates. */
  readonly normalised: number;
}

export interface Placement {
  readonly outcome: 'placed';
  /** `hostname@backend#pool`: what to write on the share instance and send the work to. */
  readonly host: string;
  /** `hostname@backend`. */
  readonly backend: string;
  /** The chosen pool after this placement was debited. */
  readonly pool: PoolView;
  readonly weight: number;
  /** Weight of the second pool after sorting, null with a single candidate. */
  readonly runnerUpWeight: number | null;
  /** Candidates whose weight equals the winner's bit for bit (the earliest pool wins a tie). */
  readonly topTies: number;
  /** Pools that passed every filter. */
  readonly candidates: number;
  readonly weights: readonly WeightPart[];
}

export interface NoValidHost {
  readonly outcome: 'no-valid-host';
  /** The filter that left no pool (Manila's detail_data.last_filter). */
  readonly lastFilter: string | null;
  /** Every filter that ran, in configured order, from all live pools (as Manila runs them). */
  readonly filters: readonly FilterOutcome[];
  /** "No valid host was found. Failed to find a weighted host, the last executed filter was X." */
  readonly message: string;
  readonly userMessage: NoValidHostUserMessage;
  /** Set when a filter stopped everything for a reason of its own (e.g. unknown share in a hint). */
  readonly reason: string | null;
}

export type SchedulingResult = Placement | NoValidHost;

/** Manila's host_passes_filters for an extend: the share's own pool passed, or which filter removed it. */
export type HostCheck =
  | { readonly passes: true }
  | {
      readonly passes: false;
      /** The filter that removed the pool; null when the pool is unknown or down. */
      readonly lastFilter: string | null;
      readonly message: string;
      readonly userMessage: NoValidHostUserMessage;
    };
