import fs from 'node:fs/promises';
import path from 'node:path';
import { DriverError } from '../contract/driver-error.js';
import type {
  ManageShareRequest,
  ManageShareResult,
  UnmanageShareRequest,
} from '../contract/share-driver.js';
import { checkProtocol } from '../common/driver-checks.js';
import type { LocalContext } from './local-context.js';
import { newMeta } from './local-shares.js';
import { GIB } from './size-enforcement/size-enforcement.js';
import { exists, measureTree } from './tree-operations.js';

/** `address:/dir` or `/dir`: the directory an export path names. */
export const directoryOf = (exportPath: string): string => {
  const colon = exportPath.indexOf(':');
  const dir =
    colon >= 0 && exportPath[colon + 1] === '/' ? exportPath.slice(colon + 1) : exportPath;
  return path.resolve(dir);
};

export const refuse = (userMessage: string, detail?: string): DriverError =>
  new DriverError({ code: 'invalid_request', userMessage, ...(detail && { detail }) });

/**
 * Manage and unmanage on the local driver. A directory under the pool (outside the driver's own
 * share, snapshot and metadata folders) is adopted by moving it to the share's place, its size
 * the data it holds rounded up to whole GiB; unmanaging moves it back where it came from (a share
 * Hawser created goes to `<pool>/unmanaged/<instance id>`), its data kept.
 */
export class LocalManage {
  constructor(private readonly context: LocalContext) {}

  async manageExisting(request: ManageShareRequest): Promise<ManageShareResult> {
    const { commandId, share, exportPath } = request;
    this.context.own(share);
    checkProtocol(share, this.context.config.options.protocols);
    const { store, layout } = this.context;
    return store.withShareLock(share.host, share.instanceId, async () => {
      const existing = await store.readShare(share.host, share.instanceId);
      if (existing) {
        return {
          sizeGiB: existing.sizeGiB,
          exportLocations: this.context.exportLocations(share),
        };
      }
      const source = directoryOf(exportPath);
      this.checkAdoptable(source, layout.poolDir(share.host));
      if (!(await fs.stat(source).catch(() => null))?.isDirectory()) {
        throw refuse('The export path names no directory on the back end.', source);
      }
      const { bytes } = await measureTree(source);
      const sizeGiB = Math.max(1, Math.ceil(bytes / GIB));
      const target = layout.shareDir(share.host, share.instanceId);
      await this.context.withMarker(
        'manageExisting',
        commandId,
        share.instanceId,
        request,
        async () => {
          await fs.mkdir(path.dirname(target), { recursive: true });
          await fs.rename(source, target);
          await store.writeShare({
            ...newMeta({ ...share, sizeGiB }, commandId, 'available'),
            managedFrom: source,
          });
        },
        async () => {
          if (await exists(target)) await fs.rename(target, source);
        },
      );
      await this.context.rewriteAccessFiles(this.context.backend);
      return {
        sizeGiB,
        exportLocations: this.context.exportLocations(share),
      };
    });
  }

  async unmanage({ commandId, share }: UnmanageShareRequest): Promise<void> {
    this.context.own(share);
    const { store, layout } = this.context;
    await store.withShareLock(share.host, share.instanceId, async () => {
      const meta = await store.readShare(share.host, share.instanceId);
      if (!meta) return;
      const source = layout.shareDir(share.host, share.instanceId);
      const target =
        meta.managedFrom ?? path.join(layout.poolDir(share.host), 'unmanaged', share.instanceId);
      await this.context.withMarker(
        'unmanage',
        commandId,
        share.instanceId,
        { share },
        async () => {
          if (await exists(source)) {
            await fs.mkdir(path.dirname(target), { recursive: true });
            await fs.rename(source, target);
          }
          await store.removeShare(share.host, share.instanceId);
        },
      );
    });
    await this.context.rewriteAccessFiles(this.context.backend);
  }

  /** Under the pool, and not one of the driver's own folders. */
  checkAdoptable(dir: string, poolDir: string): void {
    const relative = path.relative(poolDir, dir);
    const [first] = relative.split(path.sep);
    if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) {
      throw refuse('The export path is not a directory of this pool.', dir);
    }
    if (first === 'shares' || first === 'snapshots' || first === '.hawser') {
      throw refuse('The export path is a share or snapshot the back end already holds.', dir);
    }
  }
}
