import type {
  QuotaDeltas,
  QuotaHolderKind,
  QuotaLimits,
  QuotaResource,
} from './quota.resources.js';

/**
 * Commands on a project's quota. Those that check limits carry the configured defaults, so the
 * decision stays pure and configuration changes apply to the next decision.
 */
export type QuotaCommand =
  | {
      type: 'SetQuotaLimits';
      projectId: string;
      limits: Partial<Record<QuotaResource, number>>;
      /** Allow a limit below what is in use (Manila's `force`). */
      force: boolean;
      now: string;
    }
  | { type: 'ResetQuotaLimits'; projectId: string; now: string }
  | {
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
    }
  | { type: 'ReleaseQuota'; projectId: string; holderId: string; now: string }
  | {
      type: 'AdjustQuota';
      projectId: string;
      holderId: string;
      /** Names the change (an extend, a shrink): it is counted once. */
      adjustmentId: string;
      /** Signed amounts; only increases are checked against the limits. */
      deltas: QuotaDeltas;
      defaults: QuotaLimits;
      /** A user's request: the share whose stream must record it before the adjustment expires. */
      requestShareId?: string;
      now: string;
    }
  | {
      type: 'RevertQuotaAdjustment';
      projectId: string;
      holderId: string;
      adjustmentId: string;
      now: string;
    };
