import fs from 'node:fs/promises';
import { measureTree, removeTree } from '../tree-operations.js';
import type {
  ShareUsageFigures,
  SizeEnforcement,
  SizeEnforcementStrategy,
} from './size-enforcement.js';

/**
 * No limit: share directories are plain directories, writes past the size succeed and the
 * apparent size of the files (sparse files in full) is reported as over-use.
 */
export class ReportedEnforcement implements SizeEnforcementStrategy {
  constructor(readonly description: SizeEnforcement) {}

  async prepare(dir: string): Promise<void> {
    await fs.mkdir(dir, { recursive: true });
  }

  async setLimit(): Promise<void> {}

  async usage(dir: string): Promise<ShareUsageFigures> {
    return { usedBytes: (await measureTree(dir)).bytes, enforced: false };
  }

  remove(dir: string): Promise<void> {
    return removeTree(dir);
  }
}
