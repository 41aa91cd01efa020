import { execFile } from 'node:child_process';
import { onPath } from './nfs-tools.js';

/** Why a real smbd and smbclient cannot run here, or null when they can. */
export const cifsUnavailableReason = (): string | null => {
  if (!onPath('smbd') || !onPath('smbcontrol'))
    return 'smbd is not installed (apt-get install samba)';
  if (!onPath('smbclient')) return 'smbclient is not installed (apt-get install smbclient)';
  if (process.getuid?.() !== 0) return 'the managed smbd and the test users need root';
  return null;
};

export interface SmbResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const exec = (command: string, args: readonly string[], input?: string): Promise<SmbResult> =>
  new Promise((resolve) => {
    const child = execFile(command, [...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({
        code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
        stdout,
        stderr,
      }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });

/** `//host/share` for an export location `\\host\share`, reached at `host` unless told another. */
export const smbService = (location: string, host?: string): string => {
  const [, server, share] = /^\\\\([^\\]+)\\(.+)$/.exec(location) ?? [];
  if (!server || !share) throw new Error(`not a CIFS export location: ${location}`);
  return `//${host ?? server}/${share}`;
};

/** Who smbclient connects as: a user with a password, or nobody (an anonymous guest). */
export type SmbCredentials = { readonly user: string; readonly password: string } | null;

/**
 * Runs smbclient commands (`put a b; get b c`) against a share, each call a new connection,
 * optionally from inside network namespace `netns`.
 */
export const smbclient = (
  service: string,
  port: number,
  credentials: SmbCredentials,
  commands: string,
  netns?: string,
): Promise<SmbResult> => {
  const args = [
    service,
    '-p',
    String(port),
    ...(credentials ? ['-U', `${credentials.user}%${credentials.password}`] : ['-N']),
    '-c',
    commands,
  ];
  return netns
    ? exec('ip', ['netns', 'exec', netns, 'smbclient', ...args])
    : exec('smbclient', args);
};

/**
 * A Unix user with a Samba password in the passdb of each smbd configured by `configFiles`
 * (Manila creates no users: the operator does this). `remove` deletes both.
 */
export interface SambaUser {
  readonly user: string;
  readonly password: string;
  remove(): Promise<void>;
}

export const createSambaUser = async (
  configFiles: readonly string[],
  user: string,
): Promise<SambaUser> => {
  const password = `pw-${user}-${process.pid}`;
  const remove = async () => {
    for (const configFile of configFiles) await exec('smbpasswd', ['-c', configFile, '-x', user]);
    await exec('userdel', [user]);
  };
  await remove();
  const added = await exec('useradd', ['-M', '-s', '/usr/sbin/nologin', user]);
  if (added.code !== 0) throw new Error(`useradd ${user} failed: ${added.stderr.trim()}`);
  for (const configFile of configFiles) {
    const stored = await exec(
      'smbpasswd',
      ['-c', configFile, '-a', '-s', user],
      `${password}\n${password}\n`,
    );
    if (stored.code !== 0) {
      await remove();
      throw new Error(`smbpasswd -a ${user} failed: ${stored.stderr.trim()}`);
    }
  }
  return { user, password, remove };
};
