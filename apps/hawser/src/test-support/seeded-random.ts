/** mulberry32: small, fast and the same on every machine for a seed; `pick` draws an item. */
export const randomFrom = (seed: number) => {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
};

export type Random = ReturnType<typeof randomFrom>;

/** A fuzz spec's seed and request count: its own defaults unless HAWSER_FUZZ_SEED/COUNT say. */
export const fuzzSettings = (seed: number, count: number) => ({
  seed: Number(process.env.HAWSER_FUZZ_SEED ?? seed),
  count: Number(process.env.HAWSER_FUZZ_COUNT ?? count),
});
