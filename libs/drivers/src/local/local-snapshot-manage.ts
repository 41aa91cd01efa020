import fs from 'node:fs/promises';
import path from 'node:path';
import type {
  ManageSnapshotRequest,
  ManageSnapshotResult,
  SnapshotRequest,
} from '../contract/share-driver.js';
import type { LocalContext } from './local-context.js';
import type { LocalManage } from './local-manage.js';
import { directoryOf, refuse } from './local-manage.js';
import { GIB } from './size-enforcement/size-enforcement.js';
import { exists, measureTree } from './tree-operations.js';

/** btrfs gives every subvolume's root directory this inode number. */
const SUBVOLUME_ROOT_INODE = 256;

/**
 * Snapshot manage and unmanage on the local driver. A directory (or btrfs subvolume) of the
 * share's pool, outside the driver's own folders, named by its path as the provider location,
 * is adopted by moving it to the snapshot's place; its size is the data it holds rounded up to
 * whole GiB. Unmanaging moves it back where it came from (a snapshot Hawser took goes to
 * `<pool>/unmanaged/<snapshot instance id>`), its data kept.
 */
export class LocalSnapshotManage {
  constructor(
    private readonly context: LocalContext,
    private readonly manage: LocalManage,
  ) {}

  async manageExistingSnapshot(request: ManageSnapshotRequest): Promise<ManageSnapshotResult> {
    const { commandId, share, snapshot, providerLocation } = request;
    this.context.own(share);
    const { store, layout } = this.context;
    await this.context.requireShare(share);
    const target = layout.snapshotDir(share.host, snapshot.snapshotInstanceId);
    const existing = await store.readSnapshot(share.host, snapshot.snapshotInstanceId);
    if (existing) {
      return this.result(existing.sizeGiB, `${existing.method}:${target}`, request);
    }
    const source = directoryOf(providerLocation.replace(/^(subvolume|reflink|copy):/, ''));
    this.manage.checkAdoptable(source, layout.poolDir(share.host));
    const stat = await fs.stat(source).catch(() => null);
    if (!stat?.isDirectory()) {
      throw refuse('The provider location names no directory on the back end.', source);
    }
    const { bytes } = await measureTree(source);
    const sizeGiB = Math.max(1, Math.ceil(bytes / GIB));
    const method = stat.ino === SUBVOLUME_ROOT_INODE ? 'subvolume' : 'copy';
    await this.context.withMarker(
      'manageExistingSnapshot',
      commandId,
      snapshot.snapshotInstanceId,
      request,
      async () => {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.rename(source, target);
        await store.writeSnapshot({
          snapshotId: snapshot.snapshotId,
          snapshotInstanceId: snapshot.snapshotInstanceId,
          shareInstanceId: share.instanceId,
          host: share.host,
          sizeGiB,
          method,
          commandId,
          managedFrom: source,
        });
      },
      async () => {
        if (await exists(target)) await fs.rename(target, source);
      },
    );
    return this.result(sizeGiB, `${method}:${target}`, request);
  }

  private result(
    sizeGiB: number,
    providerLocation: string,
    { share, snapshot }: SnapshotRequest,
  ): ManageSnapshotResult {
    const exportLocations = this.context.snapshotExportLocations(
      share.host,
      snapshot.snapshotInstanceId,
    );
    return { sizeGiB, providerLocation, exportLocations };
  }

  async unmanageSnapshot({ commandId, share, snapshot }: SnapshotRequest): Promise<void> {
    this.context.own(share);
    const { store, layout } = this.context;
    const meta = await store.readSnapshot(share.host, snapshot.snapshotInstanceId);
    if (!meta) return;
    const source = layout.snapshotDir(share.host, snapshot.snapshotInstanceId);
    const target =
      meta.managedFrom ??
      path.join(layout.poolDir(share.host), 'unmanaged', snapshot.snapshotInstanceId);
    await this.context.withMarker(
      'unmanageSnapshot',
      commandId,
      snapshot.snapshotInstanceId,
      { share, snapshot },
      async () => {
        if (await exists(source)) {
          await fs.mkdir(path.dirname(target), { recursive: true });
          await fs.rename(source, target);
        }
        await store.removeSnapshot(share.host, snapshot.snapshotInstanceId);
      },
    );
    await this.context.rewriteAccessFiles(this.context.backend);
  }
}
