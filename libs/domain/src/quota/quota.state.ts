import { assertNever } from '../shared/decider.js';
import type { QuotaEvent } from './quota.events.js';
import {
  QUOTA_RESOURCES,
  type QuotaDeltas,
  type QuotaLimits,
  type QuotaResource,
} from './quota.resources.js';

export interface QuotaHolding {
  readonly holderKind: string;
  /** What the holder counts now: its reservation plus the adjustments in force. */
  readonly deltas: QuotaDeltas;
  /**
   * Adjustments by id; `reverted` ones stay so that a replayed adjustment is not counted again.
   * Absent in states stored before adjustments existed.
   */
  readonly adjustments?: Readonly<Record<string, { deltas: QuotaDeltas; reverted: boolean }>>;
}

export interface QuotaState {
  /** Limits an admin set; a resource not here uses the configured default. */
  readonly limits: Readonly<Partial<Record<QuotaResource, number>>>;
  /** Usage per holder id, while the holder exists. */
  readonly holdings: Readonly<Record<string, QuotaHolding>>;
  /**
   * The last RELEASED_WINDOW holders released, oldest first: a late duplicate of their
   * reservation counts nothing. Older ones are forgotten so the state stays the size of the live
   * reservations; a replayed command repeats its event ids, which the event store ignores.
   */
  readonly released: readonly string[];
}

/** How many released holders a quota remembers. */
export const RELEASED_WINDOW = 1_000;

export const initialQuotaState = (): QuotaState => ({ limits: {}, holdings: {}, released: [] });

const withHolding = (
  state: QuotaState,
  holderId: string,
  update: (holding: QuotaHolding) => QuotaHolding,
): QuotaState => {
  const holding = state.holdings[holderId];
  if (!holding) return state;
  return { ...state, holdings: { ...state.holdings, [holderId]: update(holding) } };
};

/** `base + sign * change`, resource by resource. */
export const addDeltas = (base: QuotaDeltas, change: QuotaDeltas, sign: 1 | -1): QuotaDeltas => {
  const sum: Partial<Record<QuotaResource, number>> = { ...base };
  for (const [resource, amount] of Object.entries(change) as [QuotaResource, number][]) {
    sum[resource] = (sum[resource] ?? 0) + sign * amount;
  }
  return sum;
};

export const evolveQuota = (state: QuotaState, event: QuotaEvent): QuotaState => {
  switch (event.type) {
    case 'QuotaLimitsSet':
      return { ...state, limits: { ...state.limits, ...event.data.limits } };
    case 'QuotaLimitsReset':
      return { ...state, limits: {} };
    case 'QuotaReserved':
      return {
        ...state,
        holdings: {
          ...state.holdings,
          [event.data.holderId]: { holderKind: event.data.holderKind, deltas: event.data.deltas },
        },
      };
    case 'QuotaAdjusted':
      return withHolding(state, event.data.holderId, (holding) => ({
        ...holding,
        deltas: addDeltas(holding.deltas, event.data.deltas, 1),
        adjustments: {
          ...holding.adjustments,
          [event.data.adjustmentId]: { deltas: event.data.deltas, reverted: false },
        },
      }));
    case 'QuotaAdjustmentReverted':
      return withHolding(state, event.data.holderId, (holding) => ({
        ...holding,
        deltas: addDeltas(holding.deltas, event.data.deltas, -1),
        adjustments: {
          ...holding.adjustments,
          [event.data.adjustmentId]: { deltas: event.data.deltas, reverted: true },
        },
      }));
    case 'QuotaReleased': {
      const { [event.data.holderId]: _released, ...holdings } = state.holdings;
      const released = [...state.released, event.data.holderId].slice(-RELEASED_WINDOW);
      return { ...state, holdings, released };
    }
    default:
      return assertNever(event);
  }
};

/** Usage per resource: the sum of every holding. */
export const quotaUsage = (state: QuotaState): Record<QuotaResource, number> => {
  const usage = Object.fromEntries(QUOTA_RESOURCES.map((r) => [r, 0])) as Record<
    QuotaResource,
    number
  >;
  // Runs on every reservation over every live holding: plain loops, no arrays allocated.
  for (const holderId in state.holdings) {
    const deltas = state.holdings[holderId]!.deltas;
    for (const resource in deltas) {
      usage[resource as QuotaResource] += deltas[resource as QuotaResource] ?? 0;
    }
  }
  return usage;
};

/** The limits in force: the admin's where set, the defaults otherwise. */
export const effectiveLimits = (state: QuotaState, defaults: QuotaLimits): QuotaLimits => ({
  ...defaults,
  ...state.limits,
});
