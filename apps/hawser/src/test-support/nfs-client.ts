import { execFile } from 'node:child_process';

export {
  freePort,
  nfsUnavailableReason,
} from '../../../../libs/drivers/src/local/test-support/nfs-tools.js';

/**
 * A real NFSv4 client in user space (libnfs-utils' nfs-cp, nfs-cat, nfs-ls) against the
 * Ganesha a share node runs, optionally from inside a network namespace.
 */

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export const run = (
  command: string,
  args: readonly string[],
  timeoutMs = 30_000,
): Promise<CommandResult> =>
  new Promise((resolve) => {
    execFile(command, [...args], { timeout: timeoutMs }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });

/**
 * `nfs://host/pseudo/file?version=4&nfsport=N` for an export location `host:/pseudo`, reached
 * at `host` unless another address is given (a client in a namespace sees the server there).
 */
export const nfsUrl = (
  location: string,
  port: number,
  file = '',
  host = location.slice(0, location.indexOf(':/')),
): string => {
  const pseudo = location.slice(location.indexOf(':/') + 1);
  const suffix = file ? `/${file}` : '';
  return `nfs://${host}${pseudo}${suffix}?version=4&nfsport=${port}`;
};

/** Runs an NFS client command here, or inside network namespace `netns`. */
export const nfs = (
  tool: 'nfs-cp' | 'nfs-cat' | 'nfs-ls',
  args: readonly string[],
  netns?: string,
): Promise<CommandResult> =>
  netns ? run('ip', ['netns', 'exec', netns, tool, ...args]) : run(tool, args);

/** A namespace joined to this host by a veth pair: host side `hostAddress`, inside `clientAddress`. */
export interface ClientNamespace {
  readonly name: string;
  readonly hostAddress: string;
  readonly clientAddress: string;
  remove(): Promise<void>;
}

const must = async (command: string, args: readonly string[]): Promise<void> => {
  const result = await run(command, args);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr.trim()}`);
  }
};

export const createClientNamespace = async (
  tag: string,
  hostAddress: string,
  clientAddress: string,
  prefix: number,
): Promise<ClientNamespace> => {
  const name = `hawser-${tag}`;
  const hostSide = `vh-${tag}`.slice(0, 15);
  const clientSide = `vn-${tag}`.slice(0, 15);
  const remove = async () => {
    await run('ip', ['link', 'del', hostSide]);
    await run('ip', ['netns', 'del', name]);
  };
  await remove();
  await must('ip', ['netns', 'add', name]);
  await must('ip', ['link', 'add', hostSide, 'type', 'veth', 'peer', 'name', clientSide]);
  await must('ip', ['link', 'set', clientSide, 'netns', name]);
  await must('ip', ['addr', 'add', `${hostAddress}/${prefix}`, 'dev', hostSide]);
  await must('ip', ['link', 'set', hostSide, 'up']);
  const inside = (args: string[]) => must('ip', ['netns', 'exec', name, 'ip', ...args]);
  await inside(['addr', 'add', `${clientAddress}/${prefix}`, 'dev', clientSide]);
  await inside(['link', 'set', clientSide, 'up']);
  await inside(['link', 'set', 'lo', 'up']);
  return { name, hostAddress, clientAddress, remove };
};
