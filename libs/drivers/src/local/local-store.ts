import { KeyedMutex } from '#hawser/eventstore';
import type { DriverOperationName } from '../contract/share-driver.js';
import { listJsonFiles, readJson, removeFile, writeJsonAtomic } from './json-file.js';
import type { LocalLayout } from './local-layout.js';
import type { LocalMarker, LocalShareMeta, LocalSnapshotMeta } from './local-metadata.js';

/**
 * Metadata and markers on disk. Updates to one share go through a per-file lock shared by
 * every local driver in the process, because replication writes a peer back end's metadata.
 */
export class LocalStore {
  private static readonly locks = new KeyedMutex();

  constructor(readonly layout: LocalLayout) {}

  readShare(host: string, instanceId: string): Promise<LocalShareMeta | null> {
    return readJson<LocalShareMeta>(this.layout.shareMetaFile(host, instanceId));
  }

  writeShare(meta: LocalShareMeta): Promise<void> {
    return writeJsonAtomic(this.layout.shareMetaFile(meta.host, meta.instanceId), meta);
  }

  removeShare(host: string, instanceId: string): Promise<void> {
    return removeFile(this.layout.shareMetaFile(host, instanceId));
  }

  /** Read-modify-write of one share's metadata under its lock; null when it does not exist. */
  updateShare(
    host: string,
    instanceId: string,
    change: (meta: LocalShareMeta) => LocalShareMeta | Promise<LocalShareMeta>,
  ): Promise<LocalShareMeta | null> {
    const file = this.layout.shareMetaFile(host, instanceId);
    return LocalStore.locks.run(file, async () => {
      const meta = await readJson<LocalShareMeta>(file);
      if (!meta) return null;
      const next = await change(meta);
      await writeJsonAtomic(file, next);
      return next;
    });
  }

  withShareLock<T>(host: string, instanceId: string, work: () => Promise<T>): Promise<T> {
    return LocalStore.locks.run(this.layout.shareMetaFile(host, instanceId), work);
  }

  withBackendLock<T>(backend: string, work: () => Promise<T>): Promise<T> {
    return LocalStore.locks.run(this.layout.exportsFile(backend), work);
  }

  async listShares(hosts: readonly string[]): Promise<LocalShareMeta[]> {
    const metas: LocalShareMeta[] = [];
    for (const host of hosts) {
      for (const file of await listJsonFiles(this.layout.shareMetaDir(host))) {
        const meta = await readJson<LocalShareMeta>(file);
        if (meta) metas.push(meta);
      }
    }
    return metas;
  }

  readSnapshot(host: string, snapshotInstanceId: string): Promise<LocalSnapshotMeta | null> {
    return readJson<LocalSnapshotMeta>(this.layout.snapshotMetaFile(host, snapshotInstanceId));
  }

  writeSnapshot(meta: LocalSnapshotMeta): Promise<void> {
    return writeJsonAtomic(this.layout.snapshotMetaFile(meta.host, meta.snapshotInstanceId), meta);
  }

  removeSnapshot(host: string, snapshotInstanceId: string): Promise<void> {
    return removeFile(this.layout.snapshotMetaFile(host, snapshotInstanceId));
  }

  async listSnapshots(host: string): Promise<LocalSnapshotMeta[]> {
    const metas: LocalSnapshotMeta[] = [];
    for (const file of await listJsonFiles(this.layout.snapshotMetaDir(host))) {
      const meta = await readJson<LocalSnapshotMeta>(file);
      if (meta) metas.push(meta);
    }
    return metas;
  }

  writeMarker(backend: string, marker: LocalMarker): Promise<void> {
    return writeJsonAtomic(
      this.layout.markerFile(backend, marker.operation, marker.resourceId),
      marker,
    );
  }

  removeMarker(backend: string, operation: DriverOperationName, resourceId: string): Promise<void> {
    return removeFile(this.layout.markerFile(backend, operation, resourceId));
  }

  readMarker(
    backend: string,
    operation: DriverOperationName,
    resourceId: string,
  ): Promise<LocalMarker | null> {
    return readJson<LocalMarker>(this.layout.markerFile(backend, operation, resourceId));
  }

  async listMarkers(backend: string): Promise<LocalMarker[]> {
    const markers: LocalMarker[] = [];
    for (const file of await listJsonFiles(this.layout.markersDir(backend))) {
      const marker = await readJson<LocalMarker>(file);
      if (marker) markers.push(marker);
    }
    return markers;
  }
}
