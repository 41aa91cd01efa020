// Compiles the server with `tsc -b` and bundles its services only when one of its inputs is newer
// than the last build, then does the same for the web console. An unchanged `npm start` so pays
// for a walk over file times (tens of milliseconds), not for loading the compiler to learn that
// nothing changed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const stamp = path.join(repo, 'dist/.server-built');
const bundled = path.join(repo, 'dist/bundle/hawser.js');
const SOURCE_DIRS = ['apps', 'libs', 'eventstore', 'bench', 'tools'];
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
// The console has its own check; the rest are not inputs of the server build (as
// tsconfig.build.json excludes them).
const SKIPPED = new Set(['console', 'node_modules', 'dist', 'data', 'test-support']);
const NOT_BUILT = /\.(spec|contract)\.ts$/;

/** The newest modification time under `entry` (a directory's own time covers removed files). */
const newest = (entry) => {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(entry)
    .filter((name) => !SKIPPED.has(name) && !NOT_BUILT.test(name))
    .reduce((max, name) => Math.max(max, newest(path.join(entry, name))), stat.mtimeMs);
};

const inputs = Math.max(
  ...SOURCE_DIRS.map((dir) => newest(path.join(repo, dir))),
  ...CONFIG_FILES.map((file) => fs.statSync(path.join(repo, file)).mtimeMs),
);
const modified = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
// `npm run build` compiles and bundles without a stamp; a tree without its bundle is not built.
const built = modified(bundled) > 0 ? modified(stamp) : 0;
if (built < inputs) {
  // Stamped with the time the build began, so a file saved during the build is compiled next time.
  const began = new Date();
  const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-b', path.join(repo, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
  // Bundled again only when tsc wrote something (it leaves an up-to-date tree untouched) or the
  // bundled dependencies may have changed since the last bundle, as after `npm run build`.
  const compiled = modified(path.join(repo, 'dist/tsconfig.build.tsbuildinfo'));
  if (modified(bundled) < Math.max(compiled, modified(path.join(repo, 'package-lock.json')))) {
    // Loaded only here: the bundler is not worth loading to learn that nothing changed.
    const { bundleServices } = await import('./bundle-services.mjs');
    await bundleServices();
  }
  fs.writeFileSync(stamp, `${began.toISOString()}\n`);
  fs.utimesSync(stamp, began, began);
}
await import('../../apps/console/build-if-changed.mjs');
