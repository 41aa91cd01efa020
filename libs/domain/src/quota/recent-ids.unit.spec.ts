import { isRecent, withRecent } from './recent-ids.js';

/** `count` ids added one by one to an empty window of `size`. */
const filled = (count: number, size: number, prefix = 'id'): readonly string[] =>
  Array.from({ length: count }, (_, i) => `${prefix}${i}`).reduce<readonly string[]>(
    (ids, id) => withRecent(ids, id, size),
    [],
  );

describe('recent ids: a window of the last ids added', () => {
  it('keeps the last ids added, oldest first, and drops the oldest beyond its size', () => {
    expect(filled(3, 5)).toEqual(['id0', 'id1', 'id2']);
    expect(filled(8, 5)).toEqual(['id3', 'id4', 'id5', 'id6', 'id7']);
  });

  it('knows the ids in the window and not the ones it dropped, walked or counted', () => {
    for (const size of [5, 100]) {
      const ids = filled(3 * size, size);
      expect(isRecent(ids, `id${3 * size - 1}`)).toBe(true);
      expect(isRecent(ids, `id${2 * size}`)).toBe(true);
      expect(isRecent(ids, `id${2 * size - 1}`)).toBe(false);
      expect(isRecent(ids, 'never')).toBe(false);
    }
  });

  it('answers for every window of a lineage once the counts have moved on from it', () => {
    const before = filled(100, 100);
    expect(isRecent(before, 'id0')).toBe(true);
    const after = withRecent(before, 'new', 100);
    expect(isRecent(after, 'new')).toBe(true);
    expect(isRecent(after, 'id0')).toBe(false);
    // The older window is what it was: its ids counted afresh.
    expect(isRecent(before, 'id0')).toBe(true);
    expect(isRecent(before, 'new')).toBe(false);
    // Two windows made from one: each answers for its own ids.
    const other = withRecent(before, 'other', 100);
    expect(isRecent(other, 'other')).toBe(true);
    expect(isRecent(other, 'new')).toBe(false);
    expect(isRecent(after, 'other')).toBe(false);
  });

  it('still knows an id added twice after one of the two leaves the window', () => {
    let ids = withRecent(filled(99, 100), 'twice', 100);
    expect(isRecent(ids, 'twice')).toBe(true);
    ids = withRecent(ids, 'twice', 100);
    for (let i = 0; i < 99; i++) ids = withRecent(ids, `later${i}`, 100);
    expect(ids.filter((id) => id === 'twice')).toHaveLength(1);
    expect(isRecent(ids, 'twice')).toBe(true);
    ids = withRecent(ids, 'last', 100);
    expect(isRecent(ids, 'twice')).toBe(false);
  });
});
