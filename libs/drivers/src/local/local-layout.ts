import path from 'node:path';
import { DriverError } from '../contract/driver-error.js';
import { parseShareHost } from '../contract/share-host.js';

/**
 * Where everything lives under the root shared by local back ends:
 *
 *   <root>/<host@backend>/<pool>/shares/<instanceId>/           share data (exported)
 *   <root>/<host@backend>/<pool>/snapshots/<snapshotInstanceId>/ point-in-time copies
 *   <root>/<host@backend>/<pool>/.hawser/shares/<id>.json        share metadata
 *   <root>/<host@backend>/<pool>/.hawser/snapshots/<id>.json     snapshot metadata
 *   <root>/<host@backend>/.hawser/markers/<operation>-<id>.json  work in progress
 *   <root>/<host@backend>/.hawser/lock/held-<n>.json             who drives the back end
 *   <root>/<host@backend>/exports, smb-access.conf               access rules
 *   <root>/<host@backend>/ganesha/                               NFS server config, exports, log
 *
 * Paths derive from `host@backend#pool` alone, so a back end can reach a peer's data
 * (copies and replicas across back ends) without asking it.
 */
export class LocalLayout {
  constructor(readonly root: string) {}

  backendDir(backend: string): string {
    return path.join(this.root, safeSegment(backend));
  }

  poolDir(host: string): string {
    const { backend, pool } = parseShareHost(host);
    return path.join(this.backendDir(backend), safeSegment(pool));
  }

  shareDir(host: string, instanceId: string): string {
    return path.join(this.poolDir(host), 'shares', safeSegment(instanceId));
  }

  snapshotDir(host: string, snapshotInstanceId: string): string {
    return path.join(this.poolDir(host), 'snapshots', safeSegment(snapshotInstanceId));
  }

  shareMetaDir(host: string): string {
    return path.join(this.poolDir(host), '.hawser', 'shares');
  }

  shareMetaFile(host: string, instanceId: string): string {
    return path.join(this.shareMetaDir(host), `${safeSegment(instanceId)}.json`);
  }

  snapshotMetaDir(host: string): string {
    return path.join(this.poolDir(host), '.hawser', 'snapshots');
  }

  snapshotMetaFile(host: string, snapshotInstanceId: string): string {
    return path.join(this.snapshotMetaDir(host), `${safeSegment(snapshotInstanceId)}.json`);
  }

  markersDir(backend: string): string {
    return path.join(this.backendDir(backend), '.hawser', 'markers');
  }

  lockDir(backend: string): string {
    return path.join(this.backendDir(backend), '.hawser', 'lock');
  }

  /** Held across processes while a back end's exports are rewritten. */
  exportsLockDir(backend: string): string {
    return path.join(this.backendDir(backend), '.hawser', 'exports-lock');
  }

  markerFile(backend: string, operation: string, resourceId: string): string {
    return path.join(this.markersDir(backend), `${operation}-${safeSegment(resourceId)}.json`);
  }

  exportsFile(backend: string): string {
    return path.join(this.backendDir(backend), 'exports');
  }

  ganeshaDir(backend: string): string {
    return path.join(this.backendDir(backend), 'ganesha');
  }

  smbAccessFile(backend: string): string {
    return path.join(this.backendDir(backend), 'smb-access.conf');
  }
}

/** Refuses ids that could climb out of the tree. */
function safeSegment(value: string): string {
  if (!/^[A-Za-z0-9_.@:-]+$/.test(value) || value === '.' || value === '..') {
    throw new DriverError({
      code: 'invalid_request',
      userMessage: 'The request names an invalid identifier.',
      detail: `unsafe path segment "${value}"`,
    });
  }
  return value;
}
