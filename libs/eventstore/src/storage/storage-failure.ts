/**
 * Why a store could not write: `full` (no space left), `unwritable` (a read-only file system or
 * file, or no permission), `io` (the device failed the write), `busy` (another connection held
 * the write lock past the busy time-out).
 */
export type StorageFailureKind = 'full' | 'unwritable' | 'io' | 'busy';

/**
 * Whether a kind passes by itself, once another connection lets go of the lock (`busy`), rather
 * than lasting until someone acts (space freed, the file made writable). One that passes does
 * not make the store unready, is not tried again at once (that would only wait as long again)
 * and tells the caller when to retry. Declared for every kind, so a new kind says which it is.
 */
const PASSES_BY_ITSELF: Readonly<Record<StorageFailureKind, boolean>> = {
  full: false,
  unwritable: false,
  io: false,
  busy: true,
};

/** False for no storage failure at all (`storageFailureOf` found none). */
export const passesByItself = (kind: StorageFailureKind | undefined): boolean =>
  kind !== undefined && PASSES_BY_ITSELF[kind];

const SQLITE_PREFIXES: readonly (readonly [string, StorageFailureKind])[] = [
  ['SQLITE_FULL', 'full'],
  ['SQLITE_READONLY', 'unwritable'],
  ['SQLITE_IOERR', 'io'],
  // SQLite gave up waiting for a lock another connection holds.
  ['SQLITE_BUSY', 'busy'],
  ['SQLITE_LOCKED', 'busy'],
];

const SYSTEM_CODES: Readonly<Record<string, StorageFailureKind>> = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  EROFS: 'unwritable',
  EACCES: 'unwritable',
  EPERM: 'unwritable',
  EIO: 'io',
};

const kindOfCode = (code: string): StorageFailureKind | undefined =>
  SYSTEM_CODES[code] ?? SQLITE_PREFIXES.find(([prefix]) => code.startsWith(prefix))?.[1];

/**
 * The storage failure behind `error` (a SQLite result code such as `SQLITE_FULL` or
 * `SQLITE_IOERR_WRITE`, or a file system code such as `ENOSPC` or `EROFS`), looking through
 * `cause` chains; undefined for any other error. Such a failure is the machine's, not the
 * request's: the write may succeed once space is back or the lock is free.
 */
export const storageFailureOf = (error: unknown): StorageFailureKind | undefined => {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    const kind = typeof code === 'string' ? kindOfCode(code) : undefined;
    if (kind) return kind;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
};
