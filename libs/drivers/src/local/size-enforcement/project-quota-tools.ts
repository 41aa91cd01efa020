import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DriverError } from '../../contract/driver-error.js';
import { parseProjectQuotaReport, type ProjectQuotaEntry } from './project-quota-report.js';

const run = promisify(execFile);
const TOOL_TIMEOUT_MS = 30_000;
const KIB = 1024;

/**
 * The quota tools that apply project quotas on ext4 and XFS alike (both implement the
 * generic quotactl and file-attribute calls): chattr from e2fsprogs, setquota and repquota
 * from quota. Run without a shell, as the driver's user, which must be root.
 */
export class ProjectQuotaTools {
  constructor(readonly mountPoint: string) {}

  /** Gives a directory the project id and the inherit flag, so everything made in it counts. */
  async assign(dir: string, projectId: number, recursive = false): Promise<void> {
    await this.tool('chattr', [...(recursive ? ['-R'] : []), '+P', '-p', String(projectId), dir]);
  }

  /** Sets the project's hard block limit; 0 removes it. */
  async setHardLimit(projectId: number, bytes: number): Promise<void> {
    const kib = String(Math.ceil(bytes / KIB));
    await this.tool('setquota', ['-P', String(projectId), '0', kib, '0', '0', this.mountPoint]);
  }

  /** Usage and hard limit of every project the file system accounts. */
  async report(): Promise<Map<number, ProjectQuotaEntry>> {
    const stdout = await this.tool('repquota', ['-P', '-n', '-O', 'csv', this.mountPoint]);
    return parseProjectQuotaReport(stdout);
  }

  private async tool(file: string, args: readonly string[]): Promise<string> {
    try {
      const { stdout } = await run(file, args, { timeout: TOOL_TIMEOUT_MS, encoding: 'utf8' });
      return stdout;
    } catch (error) {
      const failure = error as { stderr?: string; message?: string };
      throw new DriverError({
        code: 'backend_error',
        userMessage: 'Applying the share size failed.',
        detail: `${file} ${args.join(' ')}: ${failure.stderr?.trim() || failure.message}`,
      });
    }
  }
}
