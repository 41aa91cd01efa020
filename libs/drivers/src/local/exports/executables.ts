import fs from 'node:fs';
import path from 'node:path';

/** Whether `name` (a path, or a command looked up on PATH) can be executed. */
export function findExecutable(name: string): boolean {
  const candidates = name.includes('/')
    ? [name]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, name));
  return candidates.some((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
