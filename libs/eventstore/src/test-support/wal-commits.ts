import fs from 'node:fs';

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

/**
 * How many transactions a SQLite database's write-ahead log holds: its valid frames (salts as
 * in the log's header) that end a commit (a non-zero "database size" field). Read from the
 * file itself, so it counts what the writer really did.
 */
export const walCommits = (databaseFile: string): number => {
  const walFile = `${databaseFile}-wal`;
  if (!fs.existsSync(walFile)) return 0;
  const wal = fs.readFileSync(walFile);
  if (wal.length < WAL_HEADER_BYTES) return 0;
  const pageSize = wal.readUInt32BE(8);
  const [salt1, salt2] = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (
    let frame = WAL_HEADER_BYTES;
    frame + FRAME_HEADER_BYTES + pageSize <= wal.length;
    frame += FRAME_HEADER_BYTES + pageSize
  ) {
    if (wal.readUInt32BE(frame + 8) !== salt1 || wal.readUInt32BE(frame + 12) !== salt2) break;
    if (wal.readUInt32BE(frame + 4) !== 0) commits += 1;
  }
  return commits;
};
