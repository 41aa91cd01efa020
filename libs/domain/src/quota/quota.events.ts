import type { DomainEvent } from '../shared/decider.js';
import type {
  QuotaDeltas,
  QuotaHolderKind,
  QuotaLimitSet,
  QuotaSubjects,
} from './quota.resources.js';

/**
 * The scope a limit event names: a user's (userId), a share type's (shareTypeId), or the
 * project's (neither; every event written before user and type quotas).
 */
interface LimitScopeFields {
  userId?: string;
  shareTypeId?: string;
}

/** An admin set some of a scope's limits (the others keep their current value). */
export type QuotaLimitsSet = DomainEvent<
  'QuotaLimitsSet',
  { projectId: string; limits: QuotaLimitSet; setAt: string } & LimitScopeFields
>;

/**
 * An admin deleted a scope's quotas. The project's: every limit of the project, its users and
 * its share types is the default again (Manila's destroy_all_by_project); a user's or a type's:
 * it falls back to the project's.
 */
export type QuotaLimitsReset = DomainEvent<
  'QuotaLimitsReset',
  { projectId: string; resetAt: string } & LimitScopeFields
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
  } & QuotaSubjects
>;

/** The holder is gone (or was never created): the usage it names no longer counts. */
export type QuotaReleased = DomainEvent<
  'QuotaReleased',
  { projectId: string; holderId: string; deltas: QuotaDeltas; releasedAt: string } & QuotaSubjects
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
  } & QuotaSubjects
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
  } & QuotaSubjects
>;

/** An admin set limits of a quota class (`default`: the defaults of every project). */
export type QuotaClassLimitsSet = DomainEvent<
  'QuotaClassLimitsSet',
  { className: string; limits: QuotaLimitSet; setAt: string }
>;

export type QuotaEvent =
  | QuotaLimitsSet
  | QuotaLimitsReset
  | QuotaReserved
  | QuotaReleased
  | QuotaAdjusted
  | QuotaAdjustmentReverted
  | QuotaClassLimitsSet;

export const QUOTA_STREAM_PREFIX = 'quota-';
export const quotaStream = (projectId: string): string => `${QUOTA_STREAM_PREFIX}${projectId}`;

/** A quota class's stream; its prefix is not `quota-`, so no project is read from it. */
export const QUOTA_CLASS_STREAM_PREFIX = 'quotaclass-';
export const quotaClassStream = (className: string): string =>
  `${QUOTA_CLASS_STREAM_PREFIX}${className}`;
