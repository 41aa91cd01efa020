/**
 * `HAWSER_READINESS_MAX_LAG_S` (default 30): readiness fails while a projection has not dealt
 * with an event older than this. The one place it is read.
 */
export const readinessMaxLagS = (env: NodeJS.ProcessEnv = process.env): number => {
  const text = env.HAWSER_READINESS_MAX_LAG_S ?? '30';
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value <= 0) {
    throw new Error(`HAWSER_READINESS_MAX_LAG_S: expected a number of seconds > 0, got "${text}"`);
  }
  return value;
};
