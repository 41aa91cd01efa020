import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../json-file.js';
import { renderGaneshaServerConfig, type GaneshaServerSettings } from './ganesha-config.js';
import { sizeOf, waitForLog } from './ganesha-reload.js';
import { ManagedServer } from './managed-server.js';

export interface ManagedGaneshaFiles {
  readonly configFile: string;
  readonly logFile: string;
  readonly pidFile: string;
}

export interface ManagedGaneshaOptions {
  readonly executable: string;
  readonly files: ManagedGaneshaFiles;
  readonly settings: GaneshaServerSettings;
  /** Writes the exports include file from the driver's state, before every (re)start. */
  readonly writeExports: () => Promise<void>;
  readonly report: (message: string) => void;
}

const STARTED = /NFS SERVER INITIALIZED/;
const START_WAIT_MS = 30_000;

/** A ganesha.nfsd the share node supervises; ready once its log says the server initialised. */
export function managedGanesha(options: ManagedGaneshaOptions): ManagedServer {
  const { files, settings } = options;
  let logOffset = 0;
  return new ManagedServer({
    name: 'ganesha.nfsd',
    executable: options.executable,
    args: [
      '-F',
      '-f',
      files.configFile,
      '-L',
      files.logFile,
      '-p',
      files.pidFile,
      '-N',
      'NIV_EVENT',
    ],
    cwd: path.dirname(files.configFile),
    configFile: files.configFile,
    pidFile: files.pidFile,
    prepare: async () => {
      await fs.mkdir(settings.recoveryDir, { recursive: true });
      await writeFileAtomic(files.configFile, renderGaneshaServerConfig(settings));
      await options.writeExports();
      logOffset = await sizeOf(files.logFile);
    },
    ready: async (stillRunning) =>
      (await waitForLog(files.logFile, logOffset, STARTED, START_WAIT_MS, stillRunning)) !== null,
    report: options.report,
  });
}
