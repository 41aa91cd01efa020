import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { ExportLocation, NetworkExports } from '../../contract/share-driver.js';
import type { CifsServerOptions } from '../../config/backend-config.js';
import type { ExportedShare } from '../access-files.js';
import { readJson, readText, removeFile, writeFileAtomic, writeJsonAtomic } from '../json-file.js';
import type { LocalLayout } from '../local-layout.js';
import { ExportLayer } from './export-layer.js';
import { ManagedServer } from './managed-server.js';
import { renderSambaServerConfig, renderSambaShares, sambaShareNameOf } from './samba-config.js';
import { reloadSamba } from './samba-reload.js';
import { clientAddressOf, findExecutable, managedServing } from './serving.js';

/** Written by the back end's owner while its smbd serves; any process applying shares reads it. */
interface SambaServerFile {
  /** The smb.conf smbcontrol reaches the serving smbd through. */
  readonly configFile: string;
}

const DEFAULT_PORT = 445;
const START_WAIT_MS = 30_000;
const POLL_MS = 50;

/**
 * The CIFS export layer of one local back end: each CIFS share instance is one section of the
 * shares file smbd includes, its access rules the section's users and hosts.
 */
export class CifsExportLayer extends ExportLayer {
  readonly serving: NetworkExports = servingOf(this.config.options.cifsServer);

  /** Starts the managed smbd (shares written from the driver's state first) or points at the operator's. */
  async start(writeShares: () => Promise<void>): Promise<void> {
    const cifs = this.config.options.cifsServer;
    const files = sambaFiles(this.layout, this.config.name);
    if (!cifs || !this.serving.served) {
      await removeFile(files.serverFile);
      return;
    }
    if (cifs.mode === 'external') {
      await writeJsonAtomic(files.serverFile, {
        configFile: cifs.configFile as string,
      } satisfies SambaServerFile);
      await writeShares();
      return;
    }
    await writeJsonAtomic(files.serverFile, {
      configFile: files.configFile,
    } satisfies SambaServerFile);
    const port = cifs.port ?? DEFAULT_PORT;
    const dirs = {
      privateDir: path.join(files.dir, 'private'),
      lockDir: path.join(files.dir, 'lock'),
      stateDir: path.join(files.dir, 'state'),
      cacheDir: path.join(files.dir, 'cache'),
      pidDir: path.join(files.dir, 'run'),
    };
    const server = new ManagedServer({
      name: 'smbd',
      executable: cifs.executable ?? 'smbd',
      args: ['--foreground', '--no-process-group', '-s', files.configFile],
      cwd: files.dir,
      ownProcessGroup: true,
      configFile: files.configFile,
      pidFile: path.join(dirs.pidDir, 'smbd.pid'),
      prepare: async () => {
        for (const dir of Object.values(dirs))
          await fs.mkdir(dir, { recursive: true, mode: 0o700 });
        await writeFileAtomic(
          files.configFile,
          renderSambaServerConfig({
            port,
            ...(cifs.bindAddress ? { bindAddress: cifs.bindAddress } : {}),
            ...dirs,
            logFile: path.join(files.dir, 'smbd.log'),
            passdbFile: path.join(dirs.privateDir, 'passdb.tdb'),
            sharesFile: this.layout.smbAccessFile(this.config.name),
          }),
        );
        await writeShares();
      },
      ready: (stillRunning) => accepts(cifs.bindAddress ?? '127.0.0.1', port, stillRunning),
      report: this.report,
    });
    await this.runManaged(server, 'smbd');
  }

  protected serverFile(): string {
    return sambaFiles(this.layout, this.config.name).serverFile;
  }

  /** `\\address\share-<id>` when the back end serves CIFS, else null (the directory paths stay). */
  exportLocation(instanceId: string): ExportLocation | null {
    const cifs = this.config.options.cifsServer;
    if (!cifs || !this.serving.served) return null;
    return {
      path: `\\\\${clientAddressOf(this.config, cifs.address)}\\${sambaShareNameOf(instanceId)}`,
      isAdminOnly: false,
      preferred: true,
    };
  }
}

/**
 * Writes a back end's CIFS share sections and, where an smbd serves the back end, has it reread
 * them. Called under the back end's lock, like the NFS exports.
 */
export async function applySambaShares(
  layout: LocalLayout,
  backend: string,
  shares: readonly ExportedShare[],
): Promise<void> {
  const sharesFile = layout.smbAccessFile(backend);
  const content = renderSambaShares(shares);
  if ((await readText(sharesFile)) === content) return;
  await writeFileAtomic(sharesFile, content);
  const server = await readJson<SambaServerFile>(sambaFiles(layout, backend).serverFile);
  if (server) await reloadSamba(server.configFile);
}

function servingOf(cifs: CifsServerOptions | undefined): NetworkExports {
  if (!cifs)
    return {
      protocol: 'CIFS',
      served: false,
      reason: 'no cifsServer is configured for this back end',
    };
  if (!findExecutable('smbcontrol')) {
    return {
      protocol: 'CIFS',
      served: false,
      reason: 'smbcontrol is not installed (not found on PATH)',
    };
  }
  if (cifs.mode === 'external') {
    return {
      protocol: 'CIFS',
      served: true,
      reason: `served by the operator's smbd (${cifs.configFile})`,
    };
  }
  return managedServing(
    'CIFS',
    cifs.executable ?? 'smbd',
    "smbd acts as the share's owner, which needs root",
    `served by smbd on port ${cifs.port ?? DEFAULT_PORT}`,
  );
}

function sambaFiles(layout: LocalLayout, backend: string) {
  const dir = path.join(layout.backendDir(backend), 'samba');
  return {
    dir,
    configFile: path.join(dir, 'smb.conf'),
    serverFile: path.join(dir, 'server.json'),
  };
}

/** Resolves true once `port` accepts a TCP connection, false when smbd stops or time runs out. */
async function accepts(host: string, port: number, stillRunning: () => boolean): Promise<boolean> {
  const target = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline && stillRunning()) {
    const connected = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: target, port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (connected) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return false;
}
