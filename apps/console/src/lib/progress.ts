/** A progress text such as "40%" as a number from 0 to 100; null when there is none. */
export const percentOf = (progress: string | null | undefined): number | null => {
  if (progress === null || progress === undefined) return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(progress);
  if (!match?.[1]) return null;
  return Math.max(0, Math.min(100, Number(match[1])));
};
