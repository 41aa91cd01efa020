import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  copyTreeIncremental,
  measureTree,
  removeTree,
  setTreeWritable,
} from './tree-operations.js';

describe('tree operations', () => {
  let dir: string;
  let source: string;
  let target: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
    source = path.join(dir, 'source');
    target = path.join(dir, 'target');
    fs.mkdirSync(path.join(source, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(source, 'a.txt'), 'alpha');
    fs.writeFileSync(path.join(source, 'sub', 'b.bin'), Buffer.alloc(3000, 1));
    fs.symlinkSync('a.txt', path.join(source, 'link'));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a copied tree, when it is copied again, then unchanged files are skipped and changes and removals carried over', async () => {
    const first = await copyTreeIncremental(source, target, { deleteExtraneous: true });
    fs.writeFileSync(path.join(source, 'a.txt'), 'alpha, changed');
    fs.writeFileSync(path.join(target, 'stray.txt'), 'not in the source');

    const second = await copyTreeIncremental(source, target, { deleteExtraneous: true });

    expect(first).toEqual({ copiedBytes: 3005, skippedBytes: 0 });
    expect(second).toEqual({ copiedBytes: 14, skippedBytes: 3000 });
    expect(fs.readFileSync(path.join(target, 'a.txt'), 'utf8')).toBe('alpha, changed');
    expect(fs.readlinkSync(path.join(target, 'link'))).toBe('a.txt');
    expect(fs.existsSync(path.join(target, 'stray.txt'))).toBe(false);
    expect(await measureTree(target)).toEqual({ bytes: 3014, files: 2 });
  });

  it('given an aborted copy, when it runs again, then it finishes with the same data', async () => {
    fs.writeFileSync(path.join(source, 'big.bin'), Buffer.alloc(2 * 1024 * 1024, 9));
    const abort = new AbortController();

    const interrupted = copyTreeIncremental(source, target, {
      signal: abort.signal,
      chunkBytes: 64 * 1024,
      onProgress: (done) => {
        if (done > 256 * 1024) abort.abort();
      },
    });

    await expect(interrupted).rejects.toThrow();
    await copyTreeIncremental(source, target);
    // Buffer.equals: Jest's deep equality walks a 2 MiB buffer byte by byte, for seconds.
    const copied = fs.readFileSync(path.join(target, 'big.bin'));
    expect(copied.equals(fs.readFileSync(path.join(source, 'big.bin')))).toBe(true);
  });

  it('when a tree is made read-only, then no entry keeps a write bit, and it can still be removed', async () => {
    await setTreeWritable(source, false);

    const modes = [source, path.join(source, 'sub'), path.join(source, 'sub', 'b.bin')].map(
      (entry) => fs.statSync(entry).mode & 0o222,
    );

    expect(modes).toEqual([0, 0, 0]);
    await removeTree(source);
    expect(fs.existsSync(source)).toBe(false);
  });
});
