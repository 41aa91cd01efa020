import { assertNever, type Decider } from '../shared/decider.js';
import { invalid, overLimit } from '../shared/domain-error.js';
import type { QuotaCommand } from './quota.commands.js';
import type { QuotaEvent } from './quota.events.js';
import { validateLimits } from './quota.limits.js';
import { isRecent } from './recent-ids.js';
import type {
  QuotaDeltas,
  QuotaLimits,
  QuotaResource,
  QuotaScope,
  QuotaSubjects,
} from './quota.resources.js';
import {
  effectiveLimits,
  evolveQuota,
  fullUsage,
  initialQuotaState,
  quotaUsage,
  typeLimits,
  userLimits,
  type QuotaState,
} from './quota.state.js';

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

/** The usage and limits of each scope a change counts against: project, user, share type. */
const scopesOf = (state: QuotaState, subjects: QuotaSubjects, defaults: QuotaLimits) => [
  { usage: quotaUsage(state), limits: effectiveLimits(state, defaults) },
  ...(subjects.userId !== undefined
    ? [
        {
          usage: fullUsage(state.userUsage[subjects.userId] ?? {}),
          limits: userLimits(state, subjects.userId, defaults),
        },
      ]
    : []),
  ...(subjects.shareTypeId !== undefined
    ? [
        {
          usage: fullUsage(state.typeUsage[subjects.shareTypeId] ?? {}),
          limits: typeLimits(state, subjects.shareTypeId, defaults),
        },
      ]
    : []),
];

/**
 * `shareSize` is the size the holder will have (a new share's, an extended share's new size),
 * checked against the project's per_share_gigabytes; `deltas` are the increases, which must fit
 * the project's, the user's and the share type's limits (Manila's quota_reserve).
 */
const checkReservation = (
  state: QuotaState,
  subjects: QuotaSubjects,
  deltas: QuotaDeltas,
  shareSize: number | undefined,
  defaults: QuotaLimits,
) => {
  const perShare = effectiveLimits(state, defaults).per_share_gigabytes;
  if (shareSize !== undefined && perShare >= 0 && shareSize > perShare) {
    throw overLimit(
      `ShareSizeExceedsLimit: Requested share size ${shareSize} is larger than maximum allowed limit ${perShare}.`,
    );
  }
  const scopes = scopesOf(state, subjects, defaults);
  for (const [resource, message] of OVER_QUOTA) {
    const delta = deltas[resource] ?? 0;
    if (delta <= 0) continue;
    for (const { usage, limits } of scopes) {
      const limit = limits[resource];
      if (limit >= 0 && usage[resource] + delta > limit) throw overLimit(message(limit));
    }
  }
};

const subjectsOf = (command: QuotaSubjects): QuotaSubjects => ({
  ...(command.userId !== undefined && { userId: command.userId }),
  ...(command.shareTypeId !== undefined && { shareTypeId: command.shareTypeId }),
});

const scopeFields = (scope: QuotaScope) =>
  scope.kind === 'user'
    ? { userId: scope.userId }
    : scope.kind === 'share_type'
      ? { shareTypeId: scope.shareTypeId }
      : {};

const seen = (state: QuotaState, id: string) =>
  isRecent(state.counted, id) || isRecent(state.released, id);

/**
 * Reservations and releases are idempotent by holder id, adjustments and reverts by adjustment
 * id, within the last RECENT_WINDOW of each; the event ids a replayed command repeats are
 * ignored by the event store whatever the window holds.
 */
export const decideQuota = (command: QuotaCommand, state: QuotaState): QuotaEvent[] => {
  switch (command.type) {
    case 'SetQuotaLimits':
      validateLimits(state, command);
      return [
        {
          type: 'QuotaLimitsSet',
          data: {
            projectId: command.projectId,
            ...scopeFields(command.scope),
            limits: command.limits,
            setAt: command.now,
          },
        },
      ];
    case 'ResetQuotaLimits':
      if (!hasLimits(state, command.scope)) return [];
      return [
        {
          type: 'QuotaLimitsReset',
          data: {
            projectId: command.projectId,
            ...scopeFields(command.scope),
            resetAt: command.now,
          },
        },
      ];
    case 'ReserveQuota':
      if (seen(state, command.holderId)) return [];
      for (const [resource, amount] of Object.entries(command.deltas)) {
        if (!Number.isInteger(amount) || (amount as number) < 0) {
          throw invalid(`A quota reservation of ${resource} must be a non-negative integer.`);
        }
      }
      if (!command.overQuotaAllowed) {
        checkReservation(
          state,
          command,
          command.deltas,
          command.deltas.gigabytes,
          command.defaults,
        );
      }
      return [
        {
          type: 'QuotaReserved',
          data: {
            projectId: command.projectId,
            ...subjectsOf(command),
            holderId: command.holderId,
            holderKind: command.holderKind,
            deltas: command.deltas,
            ...(command.requestShareId !== undefined && { requestShareId: command.requestShareId }),
            reservedAt: command.now,
          },
        },
      ];
    case 'ReleaseQuota':
      if (state.released.includes(command.holderId)) return [];
      return [
        {
          type: 'QuotaReleased',
          data: {
            projectId: command.projectId,
            ...subjectsOf(command),
            holderId: command.holderId,
            deltas: command.deltas,
            releasedAt: command.now,
          },
        },
      ];
    case 'AdjustQuota':
      return decideAdjustment(command, state);
    case 'RevertQuotaAdjustment':
      if (state.released.includes(command.adjustmentId)) return [];
      return [
        {
          type: 'QuotaAdjustmentReverted',
          data: {
            projectId: command.projectId,
            ...subjectsOf(command),
            holderId: command.holderId,
            adjustmentId: command.adjustmentId,
            deltas: command.deltas,
            revertedAt: command.now,
          },
        },
      ];
    default:
      return assertNever(command);
  }
};

const hasLimits = (state: QuotaState, scope: QuotaScope): boolean => {
  switch (scope.kind) {
    case 'user':
      return scope.userId in state.userLimits;
    case 'share_type':
      return scope.shareTypeId in state.typeLimits;
    case 'project':
      return [state.limits, state.userLimits, state.typeLimits].some(
        (set) => Object.keys(set).length > 0,
      );
  }
};

/** An adjustment id seen before, reverted or not, changes nothing. */
const decideAdjustment = (
  command: Extract<QuotaCommand, { type: 'AdjustQuota' }>,
  state: QuotaState,
): QuotaEvent[] => {
  if (seen(state, command.adjustmentId)) return [];
  const increases: Partial<Record<QuotaResource, number>> = {};
  for (const [resource, amount] of Object.entries(command.deltas) as [QuotaResource, number][]) {
    if (!Number.isInteger(amount)) {
      throw invalid(`A quota adjustment of ${resource} must be an integer.`);
    }
    if (amount > 0) increases[resource] = amount;
  }
  const grows = (command.deltas.gigabytes ?? 0) > 0;
  checkReservation(
    state,
    command,
    increases,
    grows ? command.newSize : undefined,
    command.defaults,
  );
  return [
    {
      type: 'QuotaAdjusted',
      data: {
        projectId: command.projectId,
        ...subjectsOf(command),
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
 * events into another state. 1: holdings with adjustments, a bounded released window. 2: usage
 * counters per project, user and share type, limits per scope, windows of recent ids.
 */
export const QUOTA_STATE_VERSION = 2;

/**
 * A project's quota stream gains an event per share, snapshot and replica it ever had; loads
 * start from a snapshot at most this many events old.
 */
export const QUOTA_SNAPSHOT_EVERY = 50;

/**
 * A quota state's heap bytes, roughly: about 64 for each remembered id (a 36-character string
 * and its slot), 256 for each user's and share type's limits or counters, 1 KB for the rest.
 * The windows of ids dominate once a project is busy (about 130 KB with both full).
 */
export const quotaStateBytes = (state: QuotaState): number =>
  1_024 +
  64 * (state.counted.length + state.released.length) +
  256 *
    (Object.keys(state.userLimits).length +
      Object.keys(state.typeLimits).length +
      Object.keys(state.userUsage).length +
      Object.keys(state.typeUsage).length);

export const quotaDecider: Decider<QuotaState, QuotaCommand, QuotaEvent> = {
  initialState: initialQuotaState,
  evolve: evolveQuota,
  decide: decideQuota,
  snapshots: {
    stateVersion: QUOTA_STATE_VERSION,
    every: QUOTA_SNAPSHOT_EVERY,
    estimatedBytes: quotaStateBytes,
  },
};
