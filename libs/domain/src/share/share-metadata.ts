import { invalid } from '../shared/domain-error.js';
import { ownValue, withChanges } from '../shared/string-map.js';
import { isAffinityKey } from './share-affinity.js';

const METADATA_KEY_MAX = 255;
const METADATA_VALUE_MAX = 1023;

/**
 * The change a metadata request makes to `current`: the keys to set (validated) and the keys to
 * unset that exist and are not set again; null when it changes nothing.
 */
export const metadataChange = (
  current: Readonly<Record<string, string>>,
  set: Record<string, string>,
  unset: readonly string[],
): { set: Record<string, string>; unset: string[] } | null => {
  validateMetadata(set);
  const removed = unset.filter((key) => Object.hasOwn(current, key) && !Object.hasOwn(set, key));
  const changed = Object.entries(set).filter(([key, value]) => ownValue(current, key) !== value);
  if (changed.length === 0 && removed.length === 0) return null;
  return { set: Object.fromEntries(changed), unset: removed };
};

/** `current` with a change applied. */
export const applyMetadataChange = (
  current: Readonly<Record<string, string>>,
  change: { readonly set: Record<string, string>; readonly unset: readonly string[] },
): Record<string, string> => withChanges(current, change.set, change.unset);

/** Manila's limits on metadata keys and values (shares, snapshots, access rules). */
export const validateMetadata = (
  metadata: Record<string, string>,
  valueMax: (key: string) => number = () => METADATA_VALUE_MAX,
): void => {
  // Manila's words (`api/common.py` `_check_metadata_properties`).
  for (const [key, value] of Object.entries(metadata)) {
    if (key.length === 0) throw invalid('Metadata property key is blank.');
    if (key.length > METADATA_KEY_MAX) {
      throw invalid(`Metadata property key is greater than ${METADATA_KEY_MAX} characters.`);
    }
    if (typeof value !== 'string' || value.length === 0) {
      throw invalid('Metadata property value is blank.');
    }
    if (value.length > valueMax(key)) {
      throw invalid(`Metadata property value is greater than ${METADATA_VALUE_MAX} characters.`);
    }
  }
};

/**
 * A share's metadata. Its affinity keys hold lists of share ids that grow with every share
 * naming this one, so their values have no length limit.
 */
export const validateShareMetadata = (metadata: Record<string, string>): void =>
  validateMetadata(metadata, (key) => (isAffinityKey(key) ? Infinity : METADATA_VALUE_MAX));
