/**
 * Prints a bench's usage and ends the process when `--help` (or `-h`) is given, before the bench
 * starts anything: its options are read by hand, so an unknown one would otherwise run it with
 * the defaults.
 */
export const exitWithUsageIfAsked = (usage: string): void => {
  if (!process.argv.includes('--help') && !process.argv.includes('-h')) return;
  process.stdout.write(`${usage.trim()}\n`);
  process.exit(0);
};
