// Builds the console with Vite only when one of its inputs is newer than the last build, so an
// unchanged `npm start` or `npm test` rebuilds nothing (as `tsc -b` does for the server).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const consoleDir = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(consoleDir, '../..');
const stamp = path.join(repo, 'dist/ui/.built');

/** The newest modification time under `entry`, browser tests left out (they are not built). */
const newest = (entry) => {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(entry)
    .filter((name) => name !== 'e2e' && name !== 'node_modules')
    .reduce((max, name) => Math.max(max, newest(path.join(entry, name))), stat.mtimeMs);
};

const inputs = Math.max(newest(consoleDir), newest(path.join(repo, 'package-lock.json')));
const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
if (built < inputs) {
  const vite = path.join(repo, 'node_modules/vite/bin/vite.js');
  const config = path.join(consoleDir, 'vite.config.ts');
  const run = spawnSync(process.execPath, [vite, 'build', '--config', config], {
    stdio: 'inherit',
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
  fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
