import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where `npm run build:ui` writes the console: `dist/ui` under the package root. Found by
 * walking up to package.json, so the compiled server (under dist/) and the sources the tests
 * run find the same folder.
 */
export const consoleAssetsDir = (from = path.dirname(fileURLToPath(import.meta.url))): string => {
  let dir = from;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return path.join(dir, 'dist', 'ui');
};
