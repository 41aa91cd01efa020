import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The exports lock between real processes: each child increments a counter file many times
 * inside the lock, with a pause between its read and its write. Lost updates would show in the
 * total (two processes giving out the same Export_Id is the same read-then-write race).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const LOCK_MODULE = path.join(ROOT, 'dist/libs/drivers/src/local/exports/exports-lock.js');
const PROCESSES = 3;
const ROUNDS = 15;

const child = (dir: string, counter: string): Promise<number> =>
  new Promise((resolve) => {
    const script = `
      import fs from 'node:fs/promises';
      const { withExportsLock } = await import(${JSON.stringify(LOCK_MODULE)});
      for (let i = 0; i < ${ROUNDS}; i++) {
        await withExportsLock(${JSON.stringify(dir)}, 'node@b', async () => {
          const value = Number(await fs.readFile(${JSON.stringify(counter)}, 'utf8'));
          await new Promise((resolve) => setTimeout(resolve, 2));
          await fs.writeFile(${JSON.stringify(counter)}, String(value + 1));
        });
      }`;
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { timeout: 60_000 },
      (error) => resolve(error ? 1 : 0),
    );
  });

describe('exports lock across processes', () => {
  it('given processes rewriting one back end at once, when each reads then writes inside the lock, then no update is lost', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-exports-lock-'));
    const counter = path.join(root, 'counter');
    fs.writeFileSync(counter, '0');
    try {
      const codes = await Promise.all(
        Array.from({ length: PROCESSES }, () => child(path.join(root, 'lock'), counter)),
      );
      expect(codes).toEqual(Array.from({ length: PROCESSES }, () => 0));
      expect(Number(fs.readFileSync(counter, 'utf8'))).toBe(PROCESSES * ROUNDS);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
