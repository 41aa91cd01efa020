import fs from 'node:fs/promises';
import path from 'node:path';

/** Writes via a temporary file and rename, so readers see the old or the new file, never half. */
export async function writeJsonAtomic(file: string, data: unknown): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`);
}

export async function writeFileAtomic(file: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeSynced(temporary, content, 'w');
  await fs.rename(temporary, file);
}

/** Writes `content` and syncs it to disk; flag `wx` fails when the file exists. */
export async function writeSynced(file: string, content: string, flag: 'w' | 'wx'): Promise<void> {
  const handle = await fs.open(file, flag);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** A text file's content, or '' when it cannot be read (not written yet). */
export async function readText(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return '';
  }
}

export async function removeFile(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

export async function listJsonFiles(dir: string): Promise<string[]> {
  try {
    const names = await fs.readdir(dir);
    return names.filter((name) => name.endsWith('.json')).map((name) => path.join(dir, name));
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
