/*
 * Maps built from user input (metadata, extra specs, filters) are plain objects, as JSON gives
 * them. Their keys are data: `constructor`, `toString` or `__proto__` are keys like any other,
 * so a map is read by its own keys only and built with defining operations (spread,
 * `Object.fromEntries`), never by assignment, which would run the `__proto__` setter.
 */

/** The value the map holds under `key` itself; undefined for a key it does not hold. */
export const ownValue = <V>(map: Readonly<Record<string, V>>, key: string): V | undefined =>
  Object.hasOwn(map, key) ? map[key] : undefined;

/** `current` with `set` written over it and the `unset` keys removed. */
export const withChanges = (
  current: Readonly<Record<string, string>>,
  set: Readonly<Record<string, string>>,
  unset: readonly string[] = [],
): Record<string, string> => {
  const removed = new Set(unset);
  return Object.fromEntries(
    Object.entries({ ...current, ...set }).filter(([key]) => !removed.has(key)),
  );
};
