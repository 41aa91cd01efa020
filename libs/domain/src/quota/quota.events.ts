import type { DomainEvent } from '../shared/decider.js';
import type { QuotaDeltas, QuotaHolderKind, QuotaResource } from './quota.resources.js';

/** An admin set some of a project's limits (the others keep their current value). */
export type QuotaLimitsSet = DomainEvent<
  'QuotaLimitsSet',
  { projectId: string; limits: Partial<Record<QuotaResource, number>>; setAt: string }
>;

/** An admin deleted the project's quotas: every limit is the configured default again. */
export type QuotaLimitsReset = DomainEvent<
  'QuotaLimitsReset',
  { projectId: string; resetAt: string }
>;

/** Usage counted for one holder (a share, a snapshot, ...), once per holder id. */
export type QuotaReserved = DomainEvent<
  'QuotaReserved',
  {
    projectId: string;
    holderId: string;
    holderKind: QuotaHolderKind;
    deltas: QuotaDeltas;
    /**
     * Set for a user's request (absent in older events): the share whose stream must record the
     * request; a reservation no request claims there within the bound expires.
     */
    requestShareId?: string;
    reservedAt: string;
  }
>;

/** The holder is gone (or was never created): its usage no longer counts. */
export type QuotaReleased = DomainEvent<
  'QuotaReleased',
  { projectId: string; holderId: string; deltas: QuotaDeltas; releasedAt: string }
>;

/**
 * A holder's usage changed while it exists (an extend counts more gigabytes, a finished shrink
 * fewer); once per adjustment id. Amounts may be negative.
 */
export type QuotaAdjusted = DomainEvent<
  'QuotaAdjusted',
  {
    projectId: string;
    holderId: string;
    adjustmentId: string;
    deltas: QuotaDeltas;
    /** Set for a user's extend (absent in older events), as on QuotaReserved. */
    requestShareId?: string;
    adjustedAt: string;
  }
>;

/** An adjustment was given back (an extend that failed): the holder counts what it did before. */
export type QuotaAdjustmentReverted = DomainEvent<
  'QuotaAdjustmentReverted',
  {
    projectId: string;
    holderId: string;
    adjustmentId: string;
    deltas: QuotaDeltas;
    revertedAt: string;
  }
>;

export type QuotaEvent =
  | QuotaLimitsSet
  | QuotaLimitsReset
  | QuotaReserved
  | QuotaReleased
  | QuotaAdjusted
  | QuotaAdjustmentReverted;

export const QUOTA_STREAM_PREFIX = 'quota-';
export const quotaStream = (projectId: string): string => `${QUOTA_STREAM_PREFIX}${projectId}`;
