import path from 'node:path';
import { DriverError } from '../../contract/driver-error.js';
import type { ExportLocation, NetworkExports } from '../../contract/share-driver.js';
import type { NfsServerOptions } from '../../config/backend-config.js';
import type { ExportedShare } from '../access-files.js';
import { readJson, readText, removeFile, writeFileAtomic, writeJsonAtomic } from '../json-file.js';
import type { LocalLayout } from '../local-layout.js';
import { ExportLayer } from './export-layer.js';
import { ExportIds } from './export-ids.js';
import { pseudoPathOf, renderGaneshaExports } from './ganesha-config.js';
import { managedGanesha } from './ganesha-process.js';
import { reloadGanesha, type GaneshaTarget } from './ganesha-reload.js';
import { clientAddressOf, managedServing } from './serving.js';

/** Written by the back end's owner while its Ganesha serves; any process applying exports reads it. */
interface ServerFile extends GaneshaTarget {
  readonly firstExportId: number;
}

const DEFAULT_PORT = 2049;
const DEFAULT_FIRST_EXPORT_ID = 100;

/**
 * The NFS export layer of one local back end: each NFS share instance is one Ganesha export
 * (stable Export_Id, Path its directory, Pseudo from its id), its access rules the clients.
 */
export class NfsExportLayer extends ExportLayer {
  readonly serving: NetworkExports = servingOf(this.config.options.nfsServer);

  /**
   * Starts the managed server (exports written from the driver's state first) or points at the
   * operator's; without a server the exports file is left alone.
   */
  async start(writeExports: () => Promise<void>): Promise<void> {
    const nfs = this.config.options.nfsServer;
    const files = ganeshaFiles(this.layout, this.config.name);
    if (!nfs || !this.serving.served) {
      await removeFile(files.serverFile);
      return;
    }
    const external = nfs.mode === 'external';
    const target: ServerFile = {
      pidFile: external ? (nfs.pidFile as string) : files.pidFile,
      logFile: external ? null : files.logFile,
      firstExportId: nfs.firstExportId ?? DEFAULT_FIRST_EXPORT_ID,
    };
    await writeJsonAtomic(files.serverFile, target);
    if (external) {
      await writeExports();
      return;
    }
    const server = managedGanesha({
      executable: nfs.executable ?? 'ganesha.nfsd',
      files,
      settings: {
        port: nfs.port ?? DEFAULT_PORT,
        ...(nfs.bindAddress ? { bindAddress: nfs.bindAddress } : {}),
        recoveryDir: path.join(files.dir, 'recovery'),
        exportsFile: files.exportsFile,
      },
      writeExports,
      report: this.report,
    });
    await this.runManaged(server, 'ganesha.nfsd');
  }

  protected serverFile(): string {
    return ganeshaFiles(this.layout, this.config.name).serverFile;
  }

  /** `address:/pseudo` when the back end serves NFS, else null (the directory paths stay). */
  exportLocation(instanceId: string, pseudo = pseudoPathOf(instanceId)): ExportLocation | null {
    const nfs = this.config.options.nfsServer;
    if (!nfs || !this.serving.served) return null;
    const address = clientAddressOf(this.config, nfs.address);
    return { path: `${address}:${pseudo}`, isAdminOnly: false, preferred: true };
  }
}

/**
 * Brings a back end's Ganesha to the exports its shares' metadata give; a no-op for a back end
 * whose shares are not served. Called under the back end's lock, by its owner or by a peer
 * (replication changes a peer's replicas). When Ganesha refuses the new blocks, the previous
 * ones are put back and the change fails with the server's reasons.
 */
export async function applyGaneshaExports(
  layout: LocalLayout,
  backend: string,
  shares: readonly ExportedShare[],
): Promise<void> {
  const files = ganeshaFiles(layout, backend);
  const target = await readJson<ServerFile>(files.serverFile);
  if (!target) return;
  const nfsShares = shares.filter(({ meta }) => meta.protocol === 'NFS');
  const ids = await new ExportIds(files.exportIdsFile, target.firstExportId).assign(
    nfsShares.map(({ meta }) => meta.instanceId),
  );
  const content = renderGaneshaExports(
    nfsShares.map(({ dir, meta, pseudo }) => ({
      exportId: ids.get(meta.instanceId) as number,
      path: dir,
      pseudo: pseudo ?? pseudoPathOf(meta.instanceId),
      clients: meta.rules.map((rule) => ({
        address: rule.accessTo,
        accessLevel: rule.accessLevel,
      })),
    })),
  );
  const previous = await readText(files.exportsFile);
  if (previous === content) return;
  await writeFileAtomic(files.exportsFile, content);
  const outcome = await reloadGanesha(target);
  if (outcome.kind !== 'refused') return;
  await writeFileAtomic(files.exportsFile, previous);
  await reloadGanesha(target);
  throw new DriverError({
    code: 'invalid_access',
    userMessage: 'The NFS server refused the access rules; the previous rules stay in force.',
    detail: outcome.errors.join('; '),
  });
}

function servingOf(nfs: NfsServerOptions | undefined): NetworkExports {
  if (!nfs) {
    return {
      protocol: 'NFS',
      served: false,
      reason: 'no nfsServer is configured for this back end',
    };
  }
  if (nfs.mode === 'external') {
    return {
      protocol: 'NFS',
      served: true,
      reason: `served by the operator's Ganesha (pid file ${nfs.pidFile})`,
    };
  }
  const executable = nfs.executable ?? 'ganesha.nfsd';
  return managedServing(
    'NFS',
    executable,
    "Ganesha's VFS exports need root",
    `served by ganesha.nfsd on port ${nfs.port ?? DEFAULT_PORT}`,
  );
}

function ganeshaFiles(layout: LocalLayout, backend: string) {
  const dir = layout.ganeshaDir(backend);
  return {
    dir,
    configFile: path.join(dir, 'ganesha.conf'),
    exportsFile: path.join(dir, 'exports.conf'),
    logFile: path.join(dir, 'ganesha.log'),
    pidFile: path.join(dir, 'ganesha.pid'),
    serverFile: path.join(dir, 'server.json'),
    exportIdsFile: path.join(dir, 'export-ids.json'),
  };
}
