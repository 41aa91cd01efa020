import {
  evolveQuota,
  initialQuotaState,
  QUOTA_STREAM_PREFIX,
  quotaUsage,
  upcastQuotaState,
  type QuotaEvent,
  type QuotaResource,
  type QuotaState,
} from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import { singleStreamProjection } from '#hawser/read-models';
import { quotaEvents } from '../../../../eventstore/decoders.js';

export const QUOTAS = 'quotas';

/**
 * One project's quota: the limits an admin set (others are the defaults) and its usage; `state`
 * holds the counters per user and share type too (a document stored before them is upcast).
 * Its windows of recent holder ids are left empty: only the aggregate's decisions read them, and
 * kept here they made the document about 40 KB in every project of 1,000 shares or more,
 * read and rewritten on every reservation and release.
 */
export interface QuotaDocument {
  /** The project id. */
  id: string;
  /** Revision of the quota stream this document reflects (idempotent replays). */
  revision: number;
  limits: Partial<Record<QuotaResource, number>>;
  in_use: Record<QuotaResource, number>;
  updated_at: string;
  state: QuotaState;
}

const timeOf = (event: QuotaEvent): string => {
  switch (event.type) {
    case 'QuotaLimitsSet':
      return event.data.setAt;
    case 'QuotaLimitsReset':
      return event.data.resetAt;
    case 'QuotaReserved':
      return event.data.reservedAt;
    case 'QuotaReleased':
      return event.data.releasedAt;
    case 'QuotaAdjusted':
      return event.data.adjustedAt;
    case 'QuotaAdjustmentReverted':
      return event.data.revertedAt;
    case 'QuotaClassLimitsSet':
      return event.data.setAt;
  }
};

/** Quota sets per project (reference 1.10), folded with the quota aggregate's own evolve. */
export const quotasProjection = singleStreamProjection<QuotaDocument, Decoded<QuotaEvent>>({
  name: 'quotas',
  collection: QUOTAS,
  filter: { streamPrefixes: [QUOTA_STREAM_PREFIX] },
  decode: (event) => quotaEvents.decode(event),
  documentId: (event) => event.streamId.slice(QUOTA_STREAM_PREFIX.length),
  evolve: (previous, event) => {
    const stored = previous ? upcastQuotaState(previous.state) : initialQuotaState();
    const state = evolveQuota({ ...stored, counted: [], released: [] }, event);
    return {
      limits: { ...state.limits },
      in_use: quotaUsage(state),
      updated_at: timeOf(event),
      state: { ...state, counted: [], released: [] },
    };
  },
});
