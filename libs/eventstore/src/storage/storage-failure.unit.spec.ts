import { passesByItself, storageFailureOf, type StorageFailureKind } from './storage-failure.js';

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('storageFailureOf', () => {
  it.each([
    ['SQLITE_FULL', 'full'],
    ['ENOSPC', 'full'],
    ['EDQUOT', 'full'],
    ['SQLITE_READONLY', 'unwritable'],
    ['SQLITE_READONLY_DBMOVED', 'unwritable'],
    ['EROFS', 'unwritable'],
    ['EACCES', 'unwritable'],
    ['SQLITE_IOERR_WRITE', 'io'],
    ['EIO', 'io'],
    ['SQLITE_BUSY', 'busy'],
    ['SQLITE_BUSY_SNAPSHOT', 'busy'],
    ['SQLITE_LOCKED', 'busy'],
    ['SQLITE_LOCKED_SHAREDCACHE', 'busy'],
  ])('given an error with code %s, then it is a storage failure: %s', (code, kind) => {
    expect(storageFailureOf(withCode(code))).toBe(kind);
  });

  it('given a storage failure as the cause of another error, then it is found', () => {
    const wrapped = new Error('append failed', { cause: withCode('SQLITE_FULL') });

    expect(storageFailureOf(wrapped)).toBe('full');
  });

  it.each([
    ['an error without a code', new Error('boom')],
    ['a constraint failure', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a driver error code', withCode('backend_error')],
    ['a string', 'SQLITE_FULL'],
    ['nothing', undefined],
  ])('given %s, then it is not a storage failure', (_what, error) => {
    expect(storageFailureOf(error)).toBeUndefined();
  });
});

describe('passesByItself', () => {
  it.each([
    ['busy', true],
    ['full', false],
    ['unwritable', false],
    ['io', false],
  ] as const)(
    'given a %s store, then whether the failure passes by itself (the lock let go) is %s',
    (kind: StorageFailureKind, passes) => {
      expect(passesByItself(kind)).toBe(passes);
    },
  );

  it('given no storage failure, then there is nothing to pass', () => {
    expect(passesByItself(storageFailureOf(new Error('boom')))).toBe(false);
  });
});
