import type { SchedulerHints } from './share.types.js';

/** The metadata keys that record a share's affinity links (reference 7.2), one per hint. */
export const AFFINITY_KEYS = {
  sameHost: '__affinity_same_host',
  differentHost: '__affinity_different_host',
} as const;

export type AffinityHint = keyof typeof AFFINITY_KEYS;
export type AffinityKey = (typeof AFFINITY_KEYS)[AffinityHint];

export const AFFINITY_HINTS: readonly AffinityHint[] = ['sameHost', 'differentHost'];

/** Only admins may write these through the metadata API or share create. */
export const isAffinityKey = (key: string): key is AffinityKey =>
  key === AFFINITY_KEYS.sameHost || key === AFFINITY_KEYS.differentHost;

/** The share ids a stored value lists (Manila's comma-separated form), without blanks. */
export const linkedShareIds = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);

/** The metadata a new share stores for its hints: `"A,B"` under each hint's key. */
export const affinityMetadataOf = (hints: SchedulerHints | null): Record<string, string> => {
  const metadata: Record<string, string> = {};
  for (const hint of AFFINITY_HINTS) {
    const ids = hints?.[hint] ?? [];
    if (ids.length > 0) metadata[AFFINITY_KEYS[hint]] = ids.join(',');
  }
  return metadata;
};

/**
 * The hints a share's metadata records, as Manila rebuilds them for a replica or a migration
 * (reference 7.4); null when it records none.
 */
export const affinityHintsOf = (
  metadata: Readonly<Record<string, string>>,
): SchedulerHints | null => {
  const sameHost = linkedShareIds(metadata[AFFINITY_KEYS.sameHost]);
  const differentHost = linkedShareIds(metadata[AFFINITY_KEYS.differentHost]);
  if (sameHost.length === 0 && differentHost.length === 0) return null;
  return {
    ...(sameHost.length > 0 && { sameHost }),
    ...(differentHost.length > 0 && { differentHost }),
  };
};
