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

/**
 * `HAWSER_METRICS_PORT` (unset by default): the port on which any process serves `/metrics` and
 * `/health/*` without a token (a scheduler or share node has no other HTTP). The one place it is
 * read.
 */
export const metricsPort = (env: NodeJS.ProcessEnv = process.env): number | undefined => {
  const text = env.HAWSER_METRICS_PORT;
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 65_535) {
    throw new Error(`HAWSER_METRICS_PORT: expected a port number 1-65535, got "${text}"`);
  }
  return value;
};

/**
 * `HAWSER_METRICS_BIND` (default `127.0.0.1`): the address of that listener. Loopback unless the
 * operator widens it, whatever `HAWSER_BIND` the API listens on, since nothing there asks for a
 * token.
 */
export const metricsBind = (env: NodeJS.ProcessEnv = process.env): string =>
  env.HAWSER_METRICS_BIND?.trim() || '127.0.0.1';
