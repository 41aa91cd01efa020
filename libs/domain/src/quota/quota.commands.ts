import type {
  QuotaDeltas,
  QuotaHolderKind,
  QuotaLimits,
  QuotaLimitSet,
  QuotaScope,
  QuotaSubjects,
} from './quota.resources.js';

/**
 * Commands on a project's quota. Those that check limits carry the defaults in force (the
 * configured ones under the `default` quota class), so the decision stays pure and a change of
 * defaults applies to the next decision. Releases and reverts carry what they give back: the
 * quota keeps counters, not a record per holder (the holder's own stream knows its size).
 */
export type QuotaCommand =
  | {
      type: 'SetQuotaLimits';
      projectId: string;
      scope: QuotaScope;
      limits: QuotaLimitSet;
      /** Allow a limit below what is in use, or a user's or type's above the project's. */
      force: boolean;
      defaults: QuotaLimits;
      now: string;
    }
  | { type: 'ResetQuotaLimits'; projectId: string; scope: QuotaScope; now: string }
  | ({
      type: 'ReserveQuota';
      projectId: string;
      holderId: string;
      holderKind: QuotaHolderKind;
      deltas: QuotaDeltas;
      defaults: QuotaLimits;
      /** A user's request: the share whose stream must record it before the reservation expires. */
      requestShareId?: string;
      /** Counted even past the limits (a managed share, as Manila's overquota_allowed). */
      overQuotaAllowed?: true;
      now: string;
    } & QuotaSubjects)
  | ({
      type: 'ReleaseQuota';
      projectId: string;
      holderId: string;
      /** What the holder counts: its reservation plus its adjustments in force. */
      deltas: QuotaDeltas;
      now: string;
    } & QuotaSubjects)
  | ({
      type: 'AdjustQuota';
      projectId: string;
      holderId: string;
      /** Names the change (an extend, a shrink): it is counted once. */
      adjustmentId: string;
      /** Signed amounts; only increases are checked against the limits. */
      deltas: QuotaDeltas;
      /** The holder's size after a growth, checked against per_share_gigabytes. */
      newSize?: number;
      defaults: QuotaLimits;
      /** A user's request: the share whose stream must record it before the adjustment expires. */
      requestShareId?: string;
      now: string;
    } & QuotaSubjects)
  | ({
      type: 'RevertQuotaAdjustment';
      projectId: string;
      holderId: string;
      adjustmentId: string;
      /** What the adjustment counted. */
      deltas: QuotaDeltas;
      now: string;
    } & QuotaSubjects);
