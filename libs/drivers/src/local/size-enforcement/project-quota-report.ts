/** One project's line in the file system's quota report. */
export interface ProjectQuotaEntry {
  readonly usedBytes: number;
  /** 0 when the project has no hard block limit. */
  readonly hardLimitBytes: number;
}

const KIB = 1024;

/**
 * Reads `repquota -P -n -O csv` output: a header naming the columns, then one row per
 * project as `#<id>,...`. Block columns are in KiB. Columns are found by name, so a quota
 * tools release that adds some still parses.
 */
export function parseProjectQuotaReport(csv: string): Map<number, ProjectQuotaEntry> {
  const [header, ...rows] = csv.split('\n').filter((line) => line.trim() !== '');
  const columns = header?.split(',') ?? [];
  const idColumn = columns.indexOf('Project');
  const usedColumn = columns.indexOf('BlockUsed');
  const hardColumn = columns.indexOf('BlockHardLimit');
  if (idColumn < 0 || usedColumn < 0 || hardColumn < 0) {
    throw new Error(`unexpected project quota report header: ${header ?? '(empty)'}`);
  }
  const entries = new Map<number, ProjectQuotaEntry>();
  for (const row of rows) {
    const cells = row.split(',');
    const id = /^#(\d+)$/.exec(cells[idColumn] ?? '')?.[1];
    if (id === undefined) continue;
    entries.set(Number(id), {
      usedBytes: Number(cells[usedColumn]) * KIB,
      hardLimitBytes: Number(cells[hardColumn]) * KIB,
    });
  }
  return entries;
}
