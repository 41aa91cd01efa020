import fs from 'node:fs';
import path from 'node:path';
import type { LocalBackendConfig } from '../../config/backend-config.js';
import type { NetworkExports, ShareProtocol } from '../../contract/share-driver.js';

/**
 * Whether a server the share node runs itself can serve `protocol` here: its executable on PATH
 * and root (`whyRoot` says what needs it); `servedBy` describes it when it can.
 */
export function managedServing(
  protocol: ShareProtocol,
  executable: string,
  whyRoot: string,
  servedBy: string,
): NetworkExports {
  if (!findExecutable(executable)) {
    return {
      protocol,
      served: false,
      reason: `${executable} is not installed (not found on PATH)`,
    };
  }
  const uid = process.getuid?.();
  if (uid !== 0) {
    return {
      protocol,
      served: false,
      reason: `${whyRoot}, and this share node runs as uid ${uid}`,
    };
  }
  return { protocol, served: true, reason: servedBy };
}

/** The address clients are told: the server's own, else the back end's, else its host name. */
export function clientAddressOf(config: LocalBackendConfig, serverAddress?: string): string {
  return serverAddress ?? config.options.exportAddress ?? config.name.split('@')[0] ?? config.name;
}

/** Whether `name` (a path, or a command looked up on PATH) can be executed. */
export function findExecutable(name: string): boolean {
  const candidates = name.includes('/')
    ? [name]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, name));
  return candidates.some((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
