/** Project ids below this are left to administrators (e.g. entries in /etc/projects). */
const FIRST_ID = 100_000;
const ID_SPAN = 2 ** 31 - 1 - FIRST_ID;

/**
 * The project id for a new share directory: a hash of its path, moved on past any id the file
 * system already accounts, so shares of every back end on that file system get their own.
 * Chosen once and kept on the directory, so it never changes afterwards.
 */
export function chooseProjectId(shareDir: string, taken: ReadonlySet<number>): number {
  let offset = fnv1a(shareDir) % ID_SPAN;
  while (taken.has(FIRST_ID + offset)) offset = (offset + 1) % ID_SPAN;
  return FIRST_ID + offset;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
