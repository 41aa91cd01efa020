/**
 * A stored ISO time as Manila prints its datetimes (oslo's `PERFECT_TIME_FORMAT`,
 * `%Y-%m-%dT%H:%M:%S.%f`): six digits of microseconds and no zone suffix, the time being UTC.
 */
export const manilaTimestamp = (iso: string): string => {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(?:Z|[+-]00:?00)?$/.exec(
    iso,
  );
  if (!match) return iso;
  return `${match[1]}.${(match[2] ?? '').padEnd(6, '0')}`;
};
