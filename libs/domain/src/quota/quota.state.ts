import { assertNever } from '../shared/decider.js';
import type { QuotaEvent } from './quota.events.js';
import {
  QUOTA_RESOURCES,
  type QuotaDeltas,
  type QuotaLimits,
  type QuotaLimitSet,
  type QuotaResource,
  type QuotaSubjects,
} from './quota.resources.js';
import { withRecent } from './recent-ids.js';

/** What a scope counts now, per resource (absent: 0). */
export type QuotaUsage = Readonly<Partial<Record<QuotaResource, number>>>;

/**
 * A project's quota: limits per scope and usage counters per scope. Its size depends on how many
 * users and share types have limits or usage, never on how many shares the project holds: a
 * release names what it gives back, known from the holder's own stream.
 */
export interface QuotaState {
  /** Limits an admin set for the project; a resource not here uses the default. */
  readonly limits: QuotaLimitSet;
  /** Limits set per user id; a resource not set falls back to the project's. */
  readonly userLimits: Readonly<Record<string, QuotaLimitSet>>;
  /** Limits set per share type id; a resource not set falls back to the project's. */
  readonly typeLimits: Readonly<Record<string, QuotaLimitSet>>;
  /** What the project counts. */
  readonly usage: QuotaUsage;
  /** What each user counts (reservations that named one). */
  readonly userUsage: Readonly<Record<string, QuotaUsage>>;
  /** What each share type counts (reservations that named one). */
  readonly typeUsage: Readonly<Record<string, QuotaUsage>>;
  /**
   * The last RECENT_WINDOW holder and adjustment ids counted, oldest first: a duplicate of
   * their reservation or adjustment counts nothing. A replayed command repeats its event ids,
   * which the event store ignores whatever the state says, and holder ids are new per request.
   */
  readonly counted: readonly string[];
  /** The last RECENT_WINDOW holder and adjustment ids given back: given back once. */
  readonly released: readonly string[];
}

/** How many counted and given back ids a quota remembers. */
export const RECENT_WINDOW = 1_000;

export const initialQuotaState = (): QuotaState => ({
  limits: {},
  userLimits: {},
  typeLimits: {},
  usage: {},
  userUsage: {},
  typeUsage: {},
  counted: [],
  released: [],
});

/** `base + sign * change`, resource by resource. */
export const addDeltas = (base: QuotaDeltas, change: QuotaDeltas, sign: 1 | -1): QuotaDeltas => {
  const sum: Partial<Record<QuotaResource, number>> = { ...base };
  for (const resource in change) {
    const amount = change[resource as QuotaResource] ?? 0;
    sum[resource as QuotaResource] = (sum[resource as QuotaResource] ?? 0) + sign * amount;
  }
  return sum;
};

/**
 * A user's or type's counters never go below zero: a release names its user and type, while a
 * holder reserved before they were counted was counted for the project only.
 */
const addFloored = (base: QuotaUsage, change: QuotaDeltas, sign: 1 | -1): QuotaUsage => {
  const sum = addDeltas(base, change, sign) as Partial<Record<QuotaResource, number>>;
  for (const resource in sum) {
    if ((sum[resource as QuotaResource] ?? 0) < 0) sum[resource as QuotaResource] = 0;
  }
  return sum;
};

/** A window of the last RECENT_WINDOW ids counted or given back, with `id` added. */
const remembered = (ids: readonly string[], id: string): readonly string[] =>
  withRecent(ids, id, RECENT_WINDOW);

/** The counters after a change named for a project, and its user and type when named. */
const counting = (
  state: QuotaState,
  { userId, shareTypeId }: QuotaSubjects,
  deltas: QuotaDeltas,
  sign: 1 | -1,
): QuotaState => ({
  ...state,
  usage: addDeltas(state.usage, deltas, sign),
  ...(userId !== undefined && {
    userUsage: {
      ...state.userUsage,
      [userId]: addFloored(state.userUsage[userId] ?? {}, deltas, sign),
    },
  }),
  ...(shareTypeId !== undefined && {
    typeUsage: {
      ...state.typeUsage,
      [shareTypeId]: addFloored(state.typeUsage[shareTypeId] ?? {}, deltas, sign),
    },
  }),
});

const setLimits = (
  state: QuotaState,
  { userId, shareTypeId }: { userId?: string; shareTypeId?: string },
  limits: QuotaLimitSet,
): QuotaState => {
  if (userId !== undefined) {
    const own = { ...state.userLimits[userId], ...limits };
    return { ...state, userLimits: { ...state.userLimits, [userId]: own } };
  }
  if (shareTypeId !== undefined) {
    const own = { ...state.typeLimits[shareTypeId], ...limits };
    return { ...state, typeLimits: { ...state.typeLimits, [shareTypeId]: own } };
  }
  return { ...state, limits: { ...state.limits, ...limits } };
};

const resetLimits = (
  state: QuotaState,
  { userId, shareTypeId }: { userId?: string; shareTypeId?: string },
): QuotaState => {
  if (userId !== undefined) {
    const { [userId]: _reset, ...userLimits } = state.userLimits;
    return { ...state, userLimits };
  }
  if (shareTypeId !== undefined) {
    const { [shareTypeId]: _reset, ...typeLimits } = state.typeLimits;
    return { ...state, typeLimits };
  }
  return { ...state, limits: {}, userLimits: {}, typeLimits: {} };
};

export const evolveQuota = (state: QuotaState, event: QuotaEvent): QuotaState => {
  switch (event.type) {
    case 'QuotaLimitsSet':
      return setLimits(state, event.data, event.data.limits);
    case 'QuotaLimitsReset':
      return resetLimits(state, event.data);
    case 'QuotaReserved': {
      const counted = counting(state, event.data, event.data.deltas, 1);
      return { ...counted, counted: remembered(state.counted, event.data.holderId) };
    }
    case 'QuotaAdjusted': {
      const counted = counting(state, event.data, event.data.deltas, 1);
      return {
        ...counted,
        counted: remembered(state.counted, event.data.adjustmentId),
      };
    }
    case 'QuotaReleased': {
      const counted = counting(state, event.data, event.data.deltas, -1);
      return {
        ...counted,
        released: remembered(state.released, event.data.holderId),
      };
    }
    case 'QuotaAdjustmentReverted': {
      const counted = counting(state, event.data, event.data.deltas, -1);
      return {
        ...counted,
        released: remembered(state.released, event.data.adjustmentId),
      };
    }
    case 'QuotaClassLimitsSet':
      // A class's own stream: never on a project's.
      return state;
    default:
      return assertNever(event);
  }
};

/** A scope's usage with every resource named (0 where nothing was counted). */
export const fullUsage = (usage: QuotaUsage): Record<QuotaResource, number> => {
  const full = Object.fromEntries(QUOTA_RESOURCES.map((r) => [r, 0])) as Record<
    QuotaResource,
    number
  >;
  for (const resource in usage)
    full[resource as QuotaResource] += usage[resource as QuotaResource] ?? 0;
  return full;
};

/** The project's usage per resource. */
export const quotaUsage = (state: QuotaState): Record<QuotaResource, number> =>
  fullUsage(state.usage);

/** The project's limits in force: the admin's where set, the defaults otherwise. */
export const effectiveLimits = (state: QuotaState, defaults: QuotaLimits): QuotaLimits => ({
  ...defaults,
  ...state.limits,
});

/** A user's limits in force: its own, then the project's (Manila's get_user_quotas). */
export const userLimits = (
  state: QuotaState,
  userId: string,
  defaults: QuotaLimits,
): QuotaLimits => ({
  ...effectiveLimits(state, defaults),
  ...state.userLimits[userId],
});

/** A share type's limits in force: its own, then the project's (get_share_type_quotas). */
export const typeLimits = (
  state: QuotaState,
  shareTypeId: string,
  defaults: QuotaLimits,
): QuotaLimits => ({
  ...effectiveLimits(state, defaults),
  ...state.typeLimits[shareTypeId],
});

/** The state of version 1 (a record per live holder), as a snapshot or a read model kept it. */
interface QuotaStateV1 {
  readonly limits: QuotaLimitSet;
  readonly holdings: Readonly<Record<string, { readonly deltas: QuotaDeltas }>>;
  readonly released: readonly string[];
}

/**
 * Reads a stored quota state of any version: one of version 1 becomes counters (the sum of its
 * holdings; users and types were not counted then), so stored documents load after an upgrade.
 */
export const upcastQuotaState = (stored: QuotaState | QuotaStateV1): QuotaState => {
  if (!('holdings' in stored)) return stored;
  let usage: QuotaUsage = {};
  for (const holderId in stored.holdings) {
    usage = addDeltas(usage, stored.holdings[holderId]!.deltas, 1);
  }
  return {
    ...initialQuotaState(),
    limits: stored.limits,
    usage,
    counted: Object.keys(stored.holdings).slice(-RECENT_WINDOW),
    released: stored.released,
  };
};
