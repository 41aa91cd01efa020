import type { ReferencedShare } from '../request/scheduling-request.js';

/**
 * The hosts of the shares a hint names: for each share the set of its instances' hosts, or
 * the reason scheduling stops (a share that was not found or has no instance).
 */
export const referencedHostSets = (
  shares: readonly ReferencedShare[],
): { readonly sets: ReadonlySet<string>[] } | { readonly stopReason: string } => {
  const sets: ReadonlySet<string>[] = [];
  for (const share of shares) {
    if (share.instanceHosts.length === 0)
      return { stopReason: `Share ${share.shareId} or its instances not found` };
    sets.push(new Set(share.instanceHosts));
  }
  return { sets };
};
