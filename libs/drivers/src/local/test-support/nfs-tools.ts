import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Whether an executable of that name is on PATH. */
export const onPath = (name: string): boolean =>
  (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        fs.accessSync(path.join(dir, name), fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });

/** Why a real Ganesha and libnfs client cannot run here, or null when they can. */
export const nfsUnavailableReason = (): string | null => {
  if (!onPath('ganesha.nfsd')) {
    return 'ganesha.nfsd is not installed (apt-get install nfs-ganesha nfs-ganesha-vfs)';
  }
  if (!onPath('nfs-cp')) return 'nfs-cp is not installed (apt-get install libnfs-utils)';
  if (process.getuid?.() !== 0) return 'Ganesha VFS exports need root';
  return null;
};

/** A TCP port free right now on the loopback interface (for a server's fixed port). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Resolves once `check` holds, polling every 100 ms; throws after 30 s naming `what`. */
export const waitFor = async (check: () => Promise<boolean>, what: string): Promise<void> => {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** Whether a process of that pid runs (or is a zombie not yet reaped). */
export const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
