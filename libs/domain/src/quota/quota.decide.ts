import { assertNever, type Decider } from '../shared/decider.js';
import { invalid, overLimit } from '../shared/domain-error.js';
import type { QuotaCommand } from './quota.commands.js';
import type { QuotaEvent } from './quota.events.js';
import type { QuotaDeltas, QuotaLimits, QuotaResource } from './quota.resources.js';
import {
  effectiveLimits,
  evolveQuota,
  initialQuotaState,
  quotaUsage,
  type QuotaState,
} from './quota.state.js';

/** Largest limit Manila stores (db.MAX_INT). */
const MAX_LIMIT = 0x7fffffff;

/**
 * Manila's exceptions when a reservation goes over (share/api.py), checked in its order; the
 * FaultWrapper prefixes the class name (reference 3.3).
 */
const OVER_QUOTA: ReadonlyArray<readonly [QuotaResource, (limit: number) => string]> = [
  [
    'gigabytes',
    () =>
      'ShareSizeExceedsAvailableQuota: Requested share exceeds allowed project/user or share type gigabytes quota.',
  ],
  [
    'shares',
    (limit) => `ShareLimitExceeded: Maximum number of shares allowed (${limit}) exceeded.`,
  ],
  [
    'share_replicas',
    () => 'ShareReplicasLimitExceeded: Maximum number of allowed share-replicas is exceeded.',
  ],
  [
    'replica_gigabytes',
    () =>
      'ShareReplicaSizeExceedsAvailableQuota: Requested share replica exceeds allowed project/user or share type gigabytes quota.',
  ],
  [
    'snapshot_gigabytes',
    () =>
      'SnapshotSizeExceedsAvailableQuota: Requested snapshot exceeds allowed project/user or share type gigabytes quota.',
  ],
  [
    'snapshots',
    (limit) => `SnapshotLimitExceeded: Maximum number of snapshots allowed (${limit}) exceeded.`,
  ],
  [
    'share_groups',
    (limit) =>
      `ShareGroupsLimitExceeded: Maximum number of allowed share-groups (${limit}) is exceeded.`,
  ],
  [
    'share_group_snapshots',
    (limit) =>
      `ShareGroupSnapshotsLimitExceeded: Maximum number of allowed share-group-snapshots (${limit}) is exceeded.`,
  ],
  [
    'share_networks',
    (limit) =>
      `ShareNetworksLimitExceeded: Maximum number of share-networks allowed (${limit}) exceeded.`,
  ],
];

/**
 * `shareSize` is the size the holder will have (a new share's, an extended share's new size),
 * checked against per_share_gigabytes; `deltas` are the increases checked against the limits.
 */
const checkReservation = (
  state: QuotaState,
  deltas: QuotaDeltas,
  shareSize: number | undefined,
  defaults: QuotaLimits,
) => {
  const limits = effectiveLimits(state, defaults);
  const size = shareSize;
  const perShare = limits.per_share_gigabytes;
  if (size !== undefined && perShare >= 0 && size > perShare) {
    throw overLimit(
      `ShareSizeExceedsLimit: Requested share size ${size} is larger than maximum allowed limit ${perShare}.`,
    );
  }
  const usage = quotaUsage(state);
  for (const [resource, message] of OVER_QUOTA) {
    const delta = deltas[resource] ?? 0;
    const limit = limits[resource];
    if (delta > 0 && limit >= 0 && usage[resource] + delta > limit) throw overLimit(message(limit));
  }
};

const validateLimits = (
  state: QuotaState,
  limits: Partial<Record<QuotaResource, number>>,
  force: boolean,
) => {
  const usage = quotaUsage(state);
  for (const [resource, limit] of Object.entries(limits) as [QuotaResource, number][]) {
    if (!Number.isInteger(limit)) throw invalid(`Quota limit for ${resource} must be an integer.`);
    if (limit < -1) throw invalid(`Quota limit for ${resource} must be >= -1.`);
    if (limit > MAX_LIMIT) throw invalid(`Quota limit for ${resource} must be <= ${MAX_LIMIT}.`);
    // Manila's _validate_quota_limit: without force, a limit cannot go below what is counted.
    if (!force && limit !== -1 && limit < usage[resource]) {
      throw invalid(
        `Quota limit ${limit} for ${resource} must be greater than or equal to already used and reserved ${usage[resource]}.`,
      );
    }
  }
};

/**
 * Reservations and releases are idempotent by holder id: a holder is counted once and released
 * once, however often a retried request or a replayed process manager asks.
 */
export const decideQuota = (command: QuotaCommand, state: QuotaState): QuotaEvent[] => {
  switch (command.type) {
    case 'SetQuotaLimits':
      validateLimits(state, command.limits, command.force);
      return [
        {
          type: 'QuotaLimitsSet',
          data: { projectId: command.projectId, limits: command.limits, setAt: command.now },
        },
      ];
    case 'ResetQuotaLimits':
      if (Object.keys(state.limits).length === 0) return [];
      return [
        { type: 'QuotaLimitsReset', data: { projectId: command.projectId, resetAt: command.now } },
      ];
    case 'ReserveQuota':
      if (command.holderId in state.holdings || state.released.includes(command.holderId))
        return [];
      for (const [resource, amount] of Object.entries(command.deltas)) {
        if (!Number.isInteger(amount) || (amount as number) < 0) {
          throw invalid(`A quota reservation of ${resource} must be a non-negative integer.`);
        }
      }
      if (!command.overQuotaAllowed) {
        checkReservation(state, command.deltas, command.deltas.gigabytes, command.defaults);
      }
      return [
        {
          type: 'QuotaReserved',
          data: {
            projectId: command.projectId,
            holderId: command.holderId,
            holderKind: command.holderKind,
            deltas: command.deltas,
            ...(command.requestShareId !== undefined && { requestShareId: command.requestShareId }),
            reservedAt: command.now,
          },
        },
      ];
    case 'ReleaseQuota': {
      const holding = state.holdings[command.holderId];
      if (!holding) return [];
      return [
        {
          type: 'QuotaReleased',
          data: {
            projectId: command.projectId,
            holderId: command.holderId,
            deltas: holding.deltas,
            releasedAt: command.now,
          },
        },
      ];
    }
    case 'AdjustQuota':
      return decideAdjustment(command, state);
    case 'RevertQuotaAdjustment': {
      const adjustment = state.holdings[command.holderId]?.adjustments?.[command.adjustmentId];
      if (!adjustment || adjustment.reverted) return [];
      return [
        {
          type: 'QuotaAdjustmentReverted',
          data: {
            projectId: command.projectId,
            holderId: command.holderId,
            adjustmentId: command.adjustmentId,
            deltas: adjustment.deltas,
            revertedAt: command.now,
          },
        },
      ];
    }
    default:
      return assertNever(command);
  }
};

/**
 * A holder that is not counted (released, or never reserved) is not adjusted; an adjustment id
 * seen before, reverted or not, changes nothing.
 */
const decideAdjustment = (
  command: Extract<QuotaCommand, { type: 'AdjustQuota' }>,
  state: QuotaState,
): QuotaEvent[] => {
  const holding = state.holdings[command.holderId];
  if (!holding || holding.adjustments?.[command.adjustmentId]) return [];
  const increases: Partial<Record<QuotaResource, number>> = {};
  for (const [resource, amount] of Object.entries(command.deltas) as [QuotaResource, number][]) {
    if (!Number.isInteger(amount)) {
      throw invalid(`A quota adjustment of ${resource} must be an integer.`);
    }
    if (amount > 0) increases[resource] = amount;
  }
  const newSize =
    (command.deltas.gigabytes ?? 0) > 0
      ? (holding.deltas.gigabytes ?? 0) + (command.deltas.gigabytes ?? 0)
      : undefined;
  checkReservation(state, increases, newSize, command.defaults);
  return [
    {
      type: 'QuotaAdjusted',
      data: {
        projectId: command.projectId,
        holderId: command.holderId,
        adjustmentId: command.adjustmentId,
        deltas: command.deltas,
        ...(command.requestShareId !== undefined && { requestShareId: command.requestShareId }),
        adjustedAt: command.now,
      },
    },
  ];
};

/**
 * Version of QuotaState's shape in snapshots: raise it whenever evolveQuota would fold the same
 * events into another state. 1: holdings with adjustments, a bounded released window.
 */
export const QUOTA_STATE_VERSION = 1;

/**
 * A project's quota stream gains an event per share, snapshot and replica it ever had; loads
 * start from a snapshot at most this many events old.
 */
export const QUOTA_SNAPSHOT_EVERY = 50;

export const quotaDecider: Decider<QuotaState, QuotaCommand, QuotaEvent> = {
  initialState: initialQuotaState,
  evolve: evolveQuota,
  decide: decideQuota,
  snapshots: { stateVersion: QUOTA_STATE_VERSION, every: QUOTA_SNAPSHOT_EVERY },
};
