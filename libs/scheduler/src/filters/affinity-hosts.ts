import type { ReferencedShare } from '../request/scheduling-request.js';

/** Where a hint lets a share go, or why scheduling stops (a listed share is unknown). */
export type HostRule =
  | { readonly hosts: ReadonlySet<string>; readonly stopReason?: undefined }
  | { readonly hosts?: undefined; readonly stopReason: string };

/** The pool hosts of each listed share's instances, or the first share that has none. */
const hostSets = (
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

/** same_host (reference 7.3): the hosts holding an instance of every listed share (∩). */
export const sameHostAllowed = (shares: readonly ReferencedShare[]): HostRule => {
  const resolved = hostSets(shares);
  if ('stopReason' in resolved) return resolved;
  const [first, ...others] = resolved.sets;
  return {
    hosts: new Set([...(first ?? [])].filter((host) => others.every((set) => set.has(host)))),
  };
};

/** different_host (reference 7.3): the hosts holding an instance of any listed share (∪). */
export const differentHostForbidden = (shares: readonly ReferencedShare[]): HostRule => {
  const resolved = hostSets(shares);
  if ('stopReason' in resolved) return resolved;
  return { hosts: new Set(resolved.sets.flatMap((set) => [...set])) };
};

/** A hint that names no share is no hint (Manila skips the filter). */
export const named = (
  shares: readonly ReferencedShare[] | null,
): shares is readonly ReferencedShare[] => shares !== null && shares.length > 0;
