import { execFile } from 'node:child_process';

export type SambaReloadOutcome = { readonly kind: 'reloaded' } | { readonly kind: 'not_running' };

const SMBCONTROL_TIMEOUT_MS = 10_000;

/**
 * Makes the smbd whose configuration is `configFile` reread it. smbcontrol finds that smbd (its
 * pid file and messaging sockets) through the same file, so the message never reaches another
 * smbd on the machine. A ping after the reload returns once smbd has handled the reload: a
 * client that connects after this resolves meets the new sections.
 */
export async function reloadSamba(configFile: string): Promise<SambaReloadOutcome> {
  if (!(await smbcontrol(configFile, 'reload-config'))) return { kind: 'not_running' };
  await smbcontrol(configFile, 'ping');
  return { kind: 'reloaded' };
}

function smbcontrol(configFile: string, message: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      'smbcontrol',
      ['-s', configFile, '--timeout', '5', 'smbd', message],
      { timeout: SMBCONTROL_TIMEOUT_MS },
      (error) => resolve(!error),
    );
  });
}
