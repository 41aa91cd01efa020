import path from 'node:path';
import type { AccessLevel } from '../../contract/share-driver.js';

/** One share instance as one Ganesha export. */
export interface GaneshaExport {
  readonly exportId: number;
  readonly path: string;
  readonly pseudo: string;
  readonly clients: readonly { readonly address: string; readonly accessLevel: AccessLevel }[];
}

export interface GaneshaServerSettings {
  readonly port: number;
  readonly bindAddress?: string;
  readonly recoveryDir: string;
  readonly exportsFile: string;
}

/** Where clients mount an instance: derived from its id alone, so it never changes. */
export function pseudoPathOf(instanceId: string): string {
  return `/share-${instanceId}`;
}

/** Where clients mount a snapshot instance of a mountable snapshot (read-only). */
export function snapshotPseudoPathOf(snapshotInstanceId: string): string {
  return `/snapshot-${snapshotInstanceId}`;
}

/**
 * The server's own configuration (managed mode): NFSv4 only over TCP, no grace period after a
 * restart (Hawser keeps no NFS client state to recover), exports from the include file.
 * Minor version 0 stays on because common user-space clients (libnfs) speak only 4.0.
 */
export function renderGaneshaServerConfig(settings: GaneshaServerSettings): string {
  const core = [
    `  NFS_Port = ${settings.port};`,
    ...(settings.bindAddress ? [`  Bind_addr = ${settings.bindAddress};`] : []),
    '  Protocols = 4;',
    '  Enable_NLM = false;',
    '  Enable_RQUOTA = false;',
    '  Enable_UDP = false;',
  ];
  return [
    '# Managed by Hawser: rewritten each time the server starts.',
    'NFS_CORE_PARAM {',
    ...core,
    '}',
    'NFSV4 {',
    '  Graceless = true;',
    '  Minor_Versions = 0, 1, 2;',
    '  RecoveryBackend = fs;',
    `  RecoveryRoot = ${quotePath(settings.recoveryDir)};`,
    '}',
    // Ganesha's %include cannot take a path holding `@` (as back-end names do): the server runs
    // in the directory of its files and includes by name.
    `%include ${quotePath(path.basename(settings.exportsFile))}`,
    '',
  ].join('\n');
}

/**
 * The exports include file: one EXPORT block per instance, one CLIENT block per rule in the
 * order given (Ganesha takes the first block that matches a client). An export without rules
 * has no client: Ganesha hides it from everyone.
 */
export function renderGaneshaExports(exports: readonly GaneshaExport[]): string {
  const blocks = [...exports]
    .sort((a, b) => a.exportId - b.exportId)
    .map((entry) =>
      [
        'EXPORT {',
        `  Export_Id = ${entry.exportId};`,
        `  Path = ${quotePath(entry.path)};`,
        `  Pseudo = ${quotePath(entry.pseudo)};`,
        '  Protocols = 4;',
        '  Transports = TCP;',
        '  Access_Type = None;',
        '  Squash = No_Root_Squash;',
        '  SecType = sys;',
        '  FSAL { Name = VFS; }',
        ...entry.clients.map(
          (client) =>
            `  CLIENT { Clients = ${ganeshaClient(client.address)}; Protocols = 4; Access_Type = ${
              client.accessLevel === 'rw' ? 'RW' : 'RO'
            }; }`,
        ),
        '}',
      ].join('\n'),
    );
  return ['# Managed by Hawser: rewritten on every access change.', ...blocks, ''].join('\n');
}

/** Ganesha reads a network of every address as a path; its wildcard says the same. */
function ganeshaClient(address: string): string {
  return address === '0.0.0.0/0' || address === '::/0' ? '*' : address;
}

/** A double-quoted string for Ganesha's parser, which takes paths in quotes. */
function quotePath(value: string): string {
  return `"${value.replace(/(["\\])/g, '\\$1')}"`;
}
