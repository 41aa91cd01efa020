import type { SchedulingRequest } from '../request/scheduling-request.js';
import { differentHostForbidden, named, sameHostAllowed } from './affinity-hosts.js';

/** The resolved same_host / different_host hints of one share. */
export type AffinityConstraint = Pick<SchedulingRequest, 'sameHost' | 'differentHost'>;

export const NO_AFFINITY: AffinityConstraint = { sameHost: null, differentHost: null };

export type AffinityVerdict =
  | { readonly passes: true }
  | {
      readonly passes: false;
      readonly filter: 'AffinityFilter' | 'AntiAffinityFilter';
      readonly reason: string;
    };

/**
 * Whether one given pool host satisfies the hints, by the same rules as AffinityFilter and
 * AntiAffinityFilter: what Manila's `host_passes_filters` asks of a migration's destination.
 */
export const checkAffinity = (host: string, constraint: AffinityConstraint): AffinityVerdict => {
  if (named(constraint.sameHost)) {
    const rule = sameHostAllowed(constraint.sameHost);
    if (rule.stopReason !== undefined)
      return { passes: false, filter: 'AffinityFilter', reason: rule.stopReason };
    if (!rule.hosts.has(host)) {
      const reason = `${host} does not hold every share of the same_host hint`;
      return { passes: false, filter: 'AffinityFilter', reason };
    }
  }
  if (named(constraint.differentHost)) {
    const rule = differentHostForbidden(constraint.differentHost);
    if (rule.stopReason !== undefined)
      return { passes: false, filter: 'AntiAffinityFilter', reason: rule.stopReason };
    if (rule.hosts.has(host)) {
      const reason = `${host} holds a share of the different_host hint`;
      return { passes: false, filter: 'AntiAffinityFilter', reason };
    }
  }
  return { passes: true };
};
