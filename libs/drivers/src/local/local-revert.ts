import fs from 'node:fs/promises';
import type { SnapshotRequest } from '../contract/share-driver.js';
import { requireAvailable, shareNotFound, snapshotNotFound } from '../common/driver-checks.js';
import type { LocalContext } from './local-context.js';
import type { LocalSnapshotMeta } from './local-metadata.js';
import { copyTreeIncremental } from './tree-operations.js';

/**
 * Revert to snapshot on the local driver: the share directory holds the snapshot's data again
 * and the share takes the snapshot's size. A btrfs snapshot becomes the share as a new writable
 * subvolume snapshot of it; elsewhere the snapshot is copied over the share, removing what was
 * written since. Interrupted, the marker's recovery does it again.
 */
export class LocalReverts {
  constructor(private readonly context: LocalContext) {}

  async revertToSnapshot({ commandId, share, snapshot }: SnapshotRequest): Promise<void> {
    this.context.own(share);
    const { store } = this.context;
    // The metadata's update holds the share's lock for the whole revert.
    const updated = await store.updateShare(share.host, share.instanceId, async (meta) => {
      requireAvailable(share.instanceId, meta.status, 'revert to a snapshot');
      const taken = await store.readSnapshot(share.host, snapshot.snapshotInstanceId);
      if (!taken || taken.shareInstanceId !== share.instanceId) {
        throw snapshotNotFound(snapshot.snapshotInstanceId);
      }
      await this.context.withMarker(
        'revertToSnapshot',
        commandId,
        share.instanceId,
        { share, snapshot },
        () => this.restoreData(taken),
      );
      return { ...meta, sizeGiB: taken.sizeGiB };
    });
    if (!updated) throw shareNotFound(share.instanceId);
  }

  /** A revert a crash interrupted, done again whole (its outcome does not depend on where it stopped). */
  async redo(taken: LocalSnapshotMeta): Promise<void> {
    await this.restoreData(taken);
    await this.context.store.updateShare(taken.host, taken.shareInstanceId, (meta) => ({
      ...meta,
      sizeGiB: taken.sizeGiB,
    }));
  }

  /** Makes the share's directory hold the snapshot's data, limited to the snapshot's size. */
  private async restoreData(taken: LocalSnapshotMeta): Promise<void> {
    const { layout } = this.context;
    const source = layout.snapshotDir(taken.host, taken.snapshotInstanceId);
    const target = layout.shareDir(taken.host, taken.shareInstanceId);
    const enforcement = await this.context.enforcementFor(taken.host);
    if (taken.method === 'subvolume' && enforcement.cloneShare) {
      // The new subvolume is complete before the old one goes, so a crash loses no data.
      const staging = `${target}.reverting`;
      await enforcement.remove(staging);
      await enforcement.cloneShare(source, staging, taken.sizeGiB);
      await enforcement.remove(target);
      await fs.rename(staging, target);
    } else {
      await copyTreeIncremental(source, target, { deleteExtraneous: true });
      await enforcement.setLimit(target, taken.sizeGiB);
    }
  }
}
