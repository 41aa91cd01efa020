import type { ActiveShare } from '#hawser/domain';
import type { AffinityConstraint } from '#hawser/scheduler';

/**
 * The share's scheduler hints resolved to the pool hosts of the shares they name, as the
 * scheduler applies them (`AffinityHints.ofShare`, read from the log). A port, so the use case
 * does not depend on the process managers that own the resolver.
 */
export interface ShareHintsResolver {
  ofShare(share: Pick<ActiveShare, 'metadata'>): Promise<AffinityConstraint>;
}

export const SHARE_HINTS = Symbol('SHARE_HINTS');

/** One hint a destination breaks: Manila's hint name and the share it names. */
export interface BrokenHint {
  readonly hint: 'same_host' | 'different_host';
  readonly shareId: string;
}

/**
 * The hints `host` breaks, by AffinityFilter's and AntiAffinityFilter's rules (reference 7.3):
 * a `same_host` share without an instance on that pool, a `different_host` share with one.
 */
export const brokenHints = (host: string, constraint: AffinityConstraint): BrokenHint[] => [
  ...(constraint.sameHost ?? [])
    .filter((share) => !share.instanceHosts.includes(host))
    .map((share) => ({ hint: 'same_host' as const, shareId: share.shareId })),
  ...(constraint.differentHost ?? [])
    // A named share that is gone stops AntiAffinityFilter too (no valid host).
    .filter((share) => share.instanceHosts.length === 0 || share.instanceHosts.includes(host))
    .map((share) => ({ hint: 'different_host' as const, shareId: share.shareId })),
];
