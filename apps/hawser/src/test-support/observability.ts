/** One JSON log line as Hawser writes it when its output is not a terminal. */
export interface LogLine {
  readonly level: string;
  readonly msg: string;
  readonly context?: string;
  readonly requestId?: string;
  readonly [field: string]: unknown;
}

/** The JSON lines of a process's output (anything else, such as a start-up banner, skipped). */
export const logLines = (output: string): LogLine[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

/**
 * The sum of the series of metric `name` in Prometheus text whose labels include every pair
 * given (`{ operation: 'create_share' }` adds up every back end); 0 when none is recorded yet.
 */
export const metricValue = (
  text: string,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number => {
  const pairs = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  return text
    .split('\n')
    .filter(
      (l) =>
        (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) &&
        pairs.every((pair) => l.includes(pair)),
    )
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
};
