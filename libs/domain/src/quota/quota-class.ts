import type { Decider } from '../shared/decider.js';
import { invalid } from '../shared/domain-error.js';
import type { QuotaClassLimitsSet, QuotaEvent } from './quota.events.js';
import type { QuotaLimits, QuotaLimitSet, QuotaResource } from './quota.resources.js';

/** Largest limit Manila stores (db.MAX_INT). */
const MAX_LIMIT = 0x7fffffff;

/** Manila's quota class whose limits are every project's defaults. */
export const DEFAULT_QUOTA_CLASS = 'default';

/** A quota class (Manila's quota_classes table): the limits an admin set for it. */
export interface QuotaClassState {
  readonly limits: QuotaLimitSet;
}

export type QuotaClassCommand = {
  type: 'SetQuotaClassLimits';
  className: string;
  limits: QuotaLimitSet;
  now: string;
};

export const evolveQuotaClass = (state: QuotaClassState, event: QuotaEvent): QuotaClassState =>
  event.type === 'QuotaClassLimitsSet'
    ? { limits: { ...state.limits, ...event.data.limits } }
    : state;

/** Manila accepts any integer here; Hawser keeps a class's limits in a limit's range. */
const decideQuotaClass = (
  command: QuotaClassCommand,
  _state: QuotaClassState,
): QuotaClassLimitsSet[] => {
  for (const [resource, limit] of Object.entries(command.limits) as [QuotaResource, number][]) {
    if (!Number.isInteger(limit) || limit < -1 || limit > MAX_LIMIT) {
      throw invalid(`Quota limit for ${resource} must be an integer from -1 to ${MAX_LIMIT}.`);
    }
  }
  if (Object.keys(command.limits).length === 0) return [];
  return [
    {
      type: 'QuotaClassLimitsSet',
      data: { className: command.className, limits: command.limits, setAt: command.now },
    },
  ];
};

export const quotaClassDecider: Decider<QuotaClassState, QuotaClassCommand, QuotaEvent> = {
  initialState: () => ({ limits: {} }),
  evolve: evolveQuotaClass,
  decide: decideQuotaClass,
};

/** A class's limits in force: its own, then the configured defaults (get_class_quotas). */
export const classLimits = (state: QuotaClassState, configured: QuotaLimits): QuotaLimits => ({
  ...configured,
  ...state.limits,
});
