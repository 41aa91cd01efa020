/**
 * Fault injection for crash tests, off by default. HAWSER_FAULT_INJECTION_KILL_AT names points
 * (comma-separated, e.g. `after-quota-reserved:share_replica`); a process that reaches a named
 * point kills itself with SIGKILL, as a power cut would, so a test can stop it exactly between
 * two appends. The names are read once at start; a point not named costs one set lookup.
 */
const KILL_AT: ReadonlySet<string> = new Set(
  (process.env.HAWSER_FAULT_INJECTION_KILL_AT ?? '')
    .split(',')
    .map((point) => point.trim())
    .filter(Boolean),
);

export const faultInjectionPoint = (point: string): void => {
  if (KILL_AT.size > 0 && KILL_AT.has(point)) process.kill(process.pid, 'SIGKILL');
};
