import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dataDirectoryProblem } from './data-directory.js';

const asRoot = process.getuid?.() === 0;

describe('dataDirectoryProblem', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-data-dir-'));
  });
  afterEach(() => {
    fs.chmodSync(dir, 0o700);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a directory that does not exist yet, then it is created with its parents and no probe is left', () => {
    const data = path.join(dir, 'a', 'b', 'data');

    expect(dataDirectoryProblem(data)).toBeUndefined();
    expect(fs.readdirSync(data)).toEqual([]);
  });

  it('given a path below a file, then it names the directory and why it cannot be created', () => {
    fs.writeFileSync(path.join(dir, 'file'), '');
    const data = path.join(dir, 'file', 'data');

    expect(dataDirectoryProblem(data)).toBe(
      `data directory ${data} cannot be created: a part of the path is not a directory (ENOTDIR)`,
    );
  });

  (asRoot ? it.skip : it)(
    `given a directory without write permission, then it names it and the reason${asRoot ? ' (skipped: root writes whatever the mode says; the full-disk e2e spec remounts a tmpfs read-only)' : ''}`,
    () => {
      fs.chmodSync(dir, 0o500);

      expect(dataDirectoryProblem(dir)).toBe(
        `data directory ${dir} is not writable: permission denied (EACCES)`,
      );
    },
  );

  (asRoot ? it.skip : it)(
    `given a read-only data file, then it names the file${asRoot ? ' (skipped: root writes whatever the mode says)' : ''}`,
    () => {
      const file = path.join(dir, 'events.sqlite');
      fs.writeFileSync(file, '');
      fs.chmodSync(file, 0o400);

      expect(dataDirectoryProblem(dir)).toBe(
        `data file ${file} is not writable: permission denied (EACCES)`,
      );
    },
  );
});
