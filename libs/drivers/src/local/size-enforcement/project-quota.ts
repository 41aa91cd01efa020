import fs from 'node:fs/promises';
import { isMissing } from '../json-file.js';
import { measureTree, removeTree } from '../tree-operations.js';
import type { EnforcementDetector } from './detect.js';
import type { MountEntry } from './mount-table.js';
import { chooseProjectId } from './project-ids.js';
import { parseProjectQuotaReport, type ProjectQuotaEntry } from './project-quota-report.js';
import { runStorageTool, runTool, type ToolFailure } from './run-tool.js';
import {
  GIB,
  type ShareUsageFigures,
  type SizeEnforcement,
  type SizeEnforcementStrategy,
} from './size-enforcement.js';

const KIB = 1024;

/**
 * ext4 or XFS mounted with project quotas: each share directory gets a project id of its own
 * and the inherit flag (chattr +P -p), so everything written under it counts against that
 * project, whose hard block limit (setquota -P) is the share's size. Used bytes are the
 * project's allocated blocks (repquota -P). The project id lives on the directory itself, so
 * it stays the share's for good. The generic quota tools serve both file systems.
 */
export class ProjectQuotaEnforcement implements SizeEnforcementStrategy {
  constructor(readonly description: SizeEnforcement) {}

  async prepare(dir: string, sizeGiB: number): Promise<void> {
    await fs.mkdir(dir, { recursive: true });
    if ((await projectOf(dir)) === null) {
      // Data from before the file system had project quotas stays plain and reported.
      if ((await fs.readdir(dir)).length > 0) return;
      const taken = new Set((await this.report()).keys());
      const projectId = chooseProjectId(dir, taken);
      await quotaTool(
        'chattr',
        ['+P', '-p', String(projectId), dir],
        'The share could not be created.',
      );
    }
    await this.setLimit(dir, sizeGiB);
  }

  async setLimit(dir: string, sizeGiB: number): Promise<void> {
    const projectId = await projectOf(dir);
    if (projectId !== null) await this.limit(projectId, sizeGiB * GIB);
  }

  async usage(dir: string): Promise<ShareUsageFigures> {
    const projectId = await projectOf(dir);
    if (projectId === null) return { usedBytes: (await measureTree(dir)).bytes, enforced: false };
    const entry = (await this.report()).get(projectId);
    return { usedBytes: entry?.usedBytes ?? 0, enforced: (entry?.hardLimitBytes ?? 0) > 0 };
  }

  /** The limit goes first: a removal cut short leaves data behind, never a limit without data. */
  async remove(dir: string): Promise<void> {
    const projectId = await projectOf(dir);
    if (projectId !== null) await this.limit(projectId, 0);
    await removeTree(dir);
  }

  private async limit(projectId: number, bytes: number): Promise<void> {
    await quotaTool(
      'setquota',
      ['-P', String(projectId), '0', String(Math.ceil(bytes / KIB)), '0', '0', this.mountPoint],
      'The share size limit could not be set.',
    );
  }

  private async report(): Promise<Map<number, ProjectQuotaEntry>> {
    return parseProjectQuotaReport(
      await quotaTool(
        'repquota',
        reportArgs(this.mountPoint),
        'The share usage could not be read.',
      ),
    );
  }

  private get mountPoint(): string {
    return this.description.mountPoint;
  }
}

/** ext4 and XFS pools mounted with enforced project quotas, when the quota tools work there. */
export const detectProjectQuota: EnforcementDetector = async (poolDir, mount) => {
  if (mount.fileSystem !== 'ext4' && mount.fileSystem !== 'xfs') return null;
  if (!enforcesProjectQuotas(mount)) {
    return {
      unavailable: `not mounted with enforced project quotas (mount -o prjquota; ext4 also needs the quota and project features, tune2fs -O quota,project)`,
    };
  }
  try {
    await runTool('repquota', reportArgs(mount.mountPoint));
    await runTool('lsattr', ['-pd', poolDir]);
  } catch (error) {
    const failure = error as ToolFailure;
    return {
      unavailable: failure.missing
        ? `the quota tools are not installed (${failure.command.split(' ')[0]}; Debian packages quota and e2fsprogs)`
        : `project quotas are not usable (${failure.stderr}; applying them needs root)`,
    };
  }
  return new ProjectQuotaEnforcement({
    strategy: 'project-quota',
    mode: 'enforced',
    fileSystem: mount.fileSystem,
    mountPoint: mount.mountPoint,
    projectQuotasMounted: true,
    reason: `${mount.fileSystem} at ${mount.mountPoint} has project quotas: each share is a project limited to its size`,
  });
};

/** XFS `pqnoenforce` only accounts; `prjquota` (ext4, XFS) and `pquota` (XFS) enforce. */
function enforcesProjectQuotas(mount: MountEntry): boolean {
  return mount.options.some((option) => option === 'prjquota' || option === 'pquota');
}

function reportArgs(mountPoint: string): string[] {
  return ['-P', '-n', '-O', 'csv', mountPoint];
}

/** The directory's project id when it carries the inherit flag, else null (plain or missing). */
async function projectOf(dir: string): Promise<number | null> {
  try {
    await fs.lstat(dir);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  const listed = await quotaTool('lsattr', ['-pd', dir], 'The share could not be found on disk.');
  const [id, flags] = listed.trim().split(/\s+/);
  const projectId = Number(id);
  return flags?.includes('P') && projectId > 0 ? projectId : null;
}

function quotaTool(file: string, args: readonly string[], userMessage: string): Promise<string> {
  return runStorageTool(file, args, userMessage);
}
