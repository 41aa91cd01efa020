const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Manila accepts JSON booleans as extra-spec values and stores them as Python's `str()` of them,
 * `True`/`False` (db `_metadata_refs`). The manila CLI relies on it: `type-create NAME false`
 * sends `"driver_handles_share_servers": false`. Other values are left for validation.
 */
export const withBooleanSpecsAsText = (part: unknown): unknown => {
  if (!isRecord(part) || !isRecord(part.extra_specs)) return part;
  const specs = Object.fromEntries(
    Object.entries(part.extra_specs).map(([key, value]) => [
      key,
      typeof value === 'boolean' ? (value ? 'True' : 'False') : value,
    ]),
  );
  return { ...part, extra_specs: specs };
};
