import type { ExportedShare } from '../access-files.js';

/** Where a managed smbd keeps everything: all under the back end's `samba/` directory. */
export interface SambaServerSettings {
  readonly port: number;
  readonly bindAddress?: string;
  readonly privateDir: string;
  readonly lockDir: string;
  readonly stateDir: string;
  readonly cacheDir: string;
  readonly pidDir: string;
  readonly logFile: string;
  readonly passdbFile: string;
  readonly sharesFile: string;
}

/** The share name clients connect to: derived from the instance id alone, so it never changes. */
export function sambaShareNameOf(instanceId: string): string {
  return `share-${instanceId}`;
}

/**
 * The managed smbd's own smb.conf: a standalone server on its own port whose state, passdb and
 * messaging sockets are its own (so smbcontrol pointed at this file reaches this smbd alone),
 * no guest mapping of bad users, no printing, the shares from the include file.
 */
export function renderSambaServerConfig(settings: SambaServerSettings): string {
  const bind = settings.bindAddress
    ? [`  interfaces = ${settings.bindAddress}`, '  bind interfaces only = yes']
    : [];
  return [
    '# Managed by Hawser: rewritten each time the server starts.',
    '[global]',
    '  server role = standalone server',
    `  smb ports = ${settings.port}`,
    ...bind,
    '  disable netbios = yes',
    `  private dir = ${settings.privateDir}`,
    `  lock directory = ${settings.lockDir}`,
    `  state directory = ${settings.stateDir}`,
    `  cache directory = ${settings.cacheDir}`,
    `  pid directory = ${settings.pidDir}`,
    `  ncalrpc dir = ${settings.lockDir}/ncalrpc`,
    `  log file = ${settings.logFile}`,
    '  max log size = 10000',
    `  passdb backend = tdbsam:${settings.passdbFile}`,
    '  map to guest = Never',
    '  load printers = no',
    '  printing = bsd',
    '  printcap name = /dev/null',
    '  disable spoolss = yes',
    `  include = ${settings.sharesFile}`,
    '',
  ].join('\n');
}

/**
 * The shares include file: one section per CIFS share instance. `user` rules become
 * `valid users` (`ro` ones also `read list`), `ip` rules `hosts allow`; `hosts deny = ALL`
 * always, because Samba lets 127.0.0.1 and ::1 past a `hosts allow` that does not name them
 * unless they are denied. A share with only ip rules takes guests (its rules are rw); one
 * without rules is unavailable. A read-only instance (a readable replica) is read only.
 */
export function renderSambaShares(shares: readonly ExportedShare[]): string {
  const sections = [...shares]
    .filter(({ meta }) => meta.protocol === 'CIFS')
    .sort((a, b) => a.dir.localeCompare(b.dir))
    .map(({ dir, meta }) => {
      const users = meta.rules.filter((rule) => rule.accessType === 'user');
      const hosts = meta.rules.filter((rule) => rule.accessType === 'ip').map((r) => r.accessTo);
      const readers = users.filter((rule) => rule.accessLevel === 'ro').map((r) => r.accessTo);
      return [
        `[${sambaShareNameOf(meta.instanceId)}]`,
        `  path = ${dir}`,
        `  available = ${meta.rules.length > 0 ? 'yes' : 'no'}`,
        '  browseable = no',
        `  read only = ${meta.readOnly ? 'yes' : 'no'}`,
        // Samba checks the rules; in the share's directory every client acts as its owner.
        '  force user = root',
        `  guest ok = ${users.length === 0 && hosts.length > 0 ? 'yes' : 'no'}`,
        ...(users.length > 0 ? [`  valid users = ${users.map((r) => r.accessTo).join(' ')}`] : []),
        ...(readers.length > 0 ? [`  read list = ${readers.join(' ')}`] : []),
        '  hosts deny = ALL',
        `  hosts allow = ${hosts.length > 0 ? hosts.join(' ') : users.length > 0 ? 'ALL' : ''}`,
      ].join('\n');
    });
  return ['# Managed by Hawser: rewritten on every access change.', ...sections, ''].join('\n');
}
