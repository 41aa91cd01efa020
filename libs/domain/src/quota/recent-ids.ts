/**
 * A window of the last ids a quota counted or gave back: a plain array, oldest first, as a
 * snapshot stores it, with a membership test that does not walk it.
 *
 * `includes` compares the id with every entry, and ids cut from longer strings (a request's
 * path, a decoded event) compare slowly: about 0.27 ms for two full windows, on every
 * reservation of a busy project. So each array gets, on its first test, a count of its ids,
 * and a window made from an array that has one takes it over, changed by the id added and the
 * one dropped, instead of building its own. The arrays never change: the counts stay a
 * memo of them, and an older array asked again counts its ids afresh.
 */
const counts = new WeakMap<readonly string[], Map<string, number>>();

/** Windows this short are walked: counting them costs more than it saves. */
const WALKED = 32;

const countsOf = (ids: readonly string[]): Map<string, number> => {
  let counted = counts.get(ids);
  if (counted === undefined) {
    counted = new Map();
    for (const id of ids) counted.set(id, (counted.get(id) ?? 0) + 1);
    counts.set(ids, counted);
  }
  return counted;
};

export const isRecent = (ids: readonly string[], id: string): boolean =>
  ids.length <= WALKED ? ids.includes(id) : countsOf(ids).has(id);

/** The window with `id` added last, the oldest dropped beyond `size`. */
export const withRecent = (ids: readonly string[], id: string, size: number): readonly string[] => {
  const dropped = Math.max(0, ids.length + 1 - size);
  const next = [...ids.slice(dropped), id];
  const counted = counts.get(ids);
  if (counted !== undefined) {
    counts.delete(ids);
    counted.set(id, (counted.get(id) ?? 0) + 1);
    for (let i = 0; i < dropped; i++) {
      const old = ids[i] as string;
      const left = (counted.get(old) ?? 0) - 1;
      if (left > 0) counted.set(old, left);
      else counted.delete(old);
    }
    counts.set(next, counted);
  }
  return next;
};
