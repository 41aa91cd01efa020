import { invalid } from '../shared/domain-error.js';
import type { QuotaCommand } from './quota.commands.js';
import type { QuotaLimits, QuotaResource } from './quota.resources.js';
import {
  effectiveLimits,
  fullUsage,
  typeLimits,
  userLimits,
  type QuotaState,
} from './quota.state.js';

/** Largest limit Manila stores (db.MAX_INT). */
const MAX_LIMIT = 0x7fffffff;

type SetQuotaLimits = Extract<QuotaCommand, { type: 'SetQuotaLimits' }>;

/** The limits in force and the usage of the scope a command sets. */
const scopeFigures = (state: QuotaState, { scope, defaults }: SetQuotaLimits) => {
  switch (scope.kind) {
    case 'user':
      return {
        limits: userLimits(state, scope.userId, defaults),
        usage: fullUsage(state.userUsage[scope.userId] ?? {}),
      };
    case 'share_type':
      return {
        limits: typeLimits(state, scope.shareTypeId, defaults),
        usage: fullUsage(state.typeUsage[scope.shareTypeId] ?? {}),
      };
    case 'project':
      return { limits: effectiveLimits(state, defaults), usage: fullUsage(state.usage) };
  }
};

/** What the project's users' own limits of a resource add up to (Manila's limit - remains). */
const usersLimitsSum = (state: QuotaState, resource: QuotaResource): number =>
  Object.values(state.userLimits).reduce((sum, own) => sum + (own[resource] ?? 0), 0);

/**
 * Manila's settable range (get_settable_quotas): a project's limit no lower than what it uses
 * nor than its users' limits together; a user's or a share type's no lower than what it uses
 * and no higher than the project's.
 */
const settableRange = (
  state: QuotaState,
  command: SetQuotaLimits,
  project: QuotaLimits,
  used: number,
  resource: QuotaResource,
) =>
  command.scope.kind === 'project'
    ? { minimum: Math.max(usersLimitsSum(state, resource), used), maximum: -1 }
    : { minimum: used, maximum: project[resource] };

/** Manila's checks of each new limit (quota_sets.py _update and _validate_quota_limit). */
export const validateLimits = (state: QuotaState, command: SetQuotaLimits): void => {
  const { limits, usage } = scopeFigures(state, command);
  const project = effectiveLimits(state, command.defaults);
  const force = command.force;
  for (const [resource, limit] of Object.entries(command.limits) as [QuotaResource, number][]) {
    if (!Number.isInteger(limit)) throw invalid(`Quota limit for ${resource} must be an integer.`);
    if (limit > MAX_LIMIT) throw invalid(`Quota limit for ${resource} must be <= ${MAX_LIMIT}.`);
    const used = usage[resource];
    if (!force && limit >= 0 && limits[resource] >= 0 && used > limit) {
      throw invalid(
        `Quota value ${limit} for ${resource} is smaller than already used and reserved ${used}.`,
      );
    }
    if (limit < -1) throw invalid('Quota limit must be -1 or greater.');
    const { minimum, maximum } = settableRange(state, command, project, used, resource);
    if (!force && limit < minimum && (maximum !== -1 || limit !== -1)) {
      throw invalid(`Quota limit must be greater than ${minimum}.`);
    }
    if (!force && maximum !== -1 && limit > maximum) {
      throw invalid(`Quota limit must be less than ${maximum}.`);
    }
  }
};
