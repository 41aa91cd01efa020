import type {
  MigrationCompatibility,
  MigrationRequest,
  MigrationStartRequest,
  ShareStatusResult,
} from '../contract/share-driver.js';
import { shareNotFound } from '../common/driver-checks.js';
import type { LocalContext } from './local-context.js';
import type { LocalShares } from './local-shares.js';
import { newMeta } from './local-shares.js';
import { measureTree } from './tree-operations.js';

/**
 * Share migration into this back end. Local back ends share one root, so the destination's
 * driver reads the source's directory directly:
 * - driver-assisted: a clone of the source's tree (reflink where the file system shares
 *   blocks, else a copy), done in the call; the source stays as it is until completion. Not
 *   writable (writes after the clone would be lost) nor nondisruptive (the path changes);
 *   metadata (modes, times) is preserved; snapshots are not.
 * - host-assisted: the background copy of shares from snapshots, with byte progress, resumed
 *   after a restart (its marker and `copySource` say what to copy).
 */
export class LocalMigrations {
  constructor(
    private readonly context: LocalContext,
    private readonly shares: LocalShares,
  ) {}

  async checkCompatibility({
    source,
    destination,
  }: MigrationRequest): Promise<MigrationCompatibility> {
    this.context.own(destination);
    const sourceMeta = await this.context.store.readShare(source.host, source.instanceId);
    return {
      compatible: sourceMeta !== null && sourceMeta.protocol === destination.protocol,
      writable: false,
      nondisruptive: false,
      preserveMetadata: true,
      preserveSnapshots: false,
    };
  }

  async start(request: MigrationStartRequest): Promise<ShareStatusResult> {
    const { commandId, source, destination, method } = request;
    this.context.own(destination);
    const { store, layout } = this.context;
    return store.withShareLock(destination.host, destination.instanceId, async () => {
      const existing = await store.readShare(destination.host, destination.instanceId);
      if (existing) return this.shares.statusOf(existing);
      if (!(await store.readShare(source.host, source.instanceId))) {
        throw shareNotFound(source.instanceId);
      }
      const sourceDir = layout.shareDir(source.host, source.instanceId);
      const target = layout.shareDir(destination.host, destination.instanceId);
      if (method === 'driver') {
        await this.context.withMarker(
          'createShare',
          commandId,
          destination.instanceId,
          { share: destination },
          async () => {
            await this.context.cloneIntoShare(sourceDir, destination);
            await store.writeShare(newMeta(destination, commandId, 'available'));
          },
          () => this.shares.destroy(destination),
        );
        const meta = await this.context.requireShare(destination);
        return this.shares.statusOf(meta);
      }
      const { bytes } = await measureTree(sourceDir);
      // The marker outlives the call: the background copy removes it when it ends.
      await store.writeMarker(this.context.backend, {
        operation: 'createShareFromSnapshot',
        commandId,
        resourceId: destination.instanceId,
        request: { share: destination, source },
        startedAt: new Date().toISOString(),
      });
      await this.context.prepareShareDir(destination);
      await store.writeShare({
        ...newMeta(destination, commandId, 'creating_from_snapshot'),
        copySource: { dir: sourceDir, totalBytes: bytes },
      });
      this.shares.startCopy(destination, sourceDir, target, bytes);
      return { status: 'creating_from_snapshot', progress: 0 };
    });
  }
}
