import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFile } from '@swc/core';

/**
 * A User-mode Linux guest (Debian's user-mode-linux) for tests that need project quotas, which
 * kernels built without CONFIG_QUOTA cannot mount. The guest runs as a process, its root is the
 * host's file system (hostfs), so it runs the host's node on the built driver; each file system
 * under test is an image file attached as a block device and mounted with `prjquota`.
 */

export type QuotaFileSystem = 'ext4' | 'xfs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const DRIVER_MODULE = path.join(ROOT, 'dist/libs/drivers/src/local/local.driver.js');
const SCENARIO = path.join(path.dirname(fileURLToPath(import.meta.url)), 'quota-guest-scenario.ts');
const UML_MODULES = '/usr/lib/uml/modules';
const SEARCH_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
/** Sparse images: room for the scenario's 2 GiB share plus the file system's own blocks. */
const IMAGE_BYTES = 4 * 1024 ** 3;
const GUEST_DEVICES = ['ubda', 'ubdb', 'ubdc'];

const TOOLS: ReadonlyArray<readonly [string, string]> = [
  ['linux.uml', 'user-mode-linux'],
  ['insmod', 'kmod'],
  ['chattr', 'e2fsprogs'],
  ['mkfs.ext4', 'e2fsprogs'],
  ['mkfs.xfs', 'xfsprogs'],
  ['setquota', 'quota'],
  ['repquota', 'quota'],
];

function which(tool: string): string | undefined {
  return SEARCH_PATH.map((dir) => path.join(dir, tool)).find((file) => fs.existsSync(file));
}

/** The quota format modules of the guest kernel (built as modules in Debian's UML). */
function quotaModules(): string[] | undefined {
  if (!fs.existsSync(UML_MODULES)) return undefined;
  for (const version of fs.readdirSync(UML_MODULES)) {
    const dir = path.join(UML_MODULES, version, 'kernel/fs/quota');
    const modules = ['quota_tree.ko', 'quota_v2.ko'].map((name) => path.join(dir, name));
    if (modules.every((file) => fs.existsSync(file))) return modules;
  }
  return undefined;
}

/** Why the guest cannot run here, or undefined when it can. */
export function quotaVmUnavailable(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return `needs Linux on x86-64, this is ${process.platform}/${process.arch}`;
  }
  const missing = TOOLS.filter(([tool]) => !which(tool));
  if (missing.length > 0) {
    const packages = [...new Set(missing.map(([, pkg]) => pkg))].join(' ');
    return `${missing.map(([tool]) => tool).join(', ')} missing (apt-get install ${packages})`;
  }
  if (!quotaModules()) return `no quota_v2 module under ${UML_MODULES} (user-mode-linux)`;
  return undefined;
}

export interface QuotaVmRun {
  /** What the scenario wrote, by file system. */
  readonly results: Record<QuotaFileSystem, Record<string, unknown>>;
  /** From starting the guest to its first user-space step. */
  readonly bootMs: number;
  /** The whole run, guest start to halt. */
  readonly totalMs: number;
  /** The guest console, for failure messages. */
  readonly console: string;
}

/**
 * Boots the guest with one fresh image per file system, runs the driver scenario on each and
 * returns what it found. Needs the build (`npm run build`).
 */
export async function runQuotaScenario(
  fileSystems: readonly QuotaFileSystem[],
  timeoutMs = 80_000,
): Promise<QuotaVmRun> {
  if (!fs.existsSync(DRIVER_MODULE)) throw new Error(`${DRIVER_MODULE} missing: npm run build`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-quota-vm-'));
  // The scenario's unprivileged writer must reach its script and the mount points.
  fs.chmodSync(work, 0o755);
  try {
    const scenario = path.join(work, 'quota-guest-scenario.mjs');
    fs.writeFileSync(scenario, (await transformFile(SCENARIO, { jsc: { target: 'es2022' } })).code);
    const mounts = fileSystems.map((fileSystem, index) => ({
      fileSystem,
      image: makeImage(work, fileSystem),
      device: `/dev/${GUEST_DEVICES[index]}`,
      mountPoint: path.join(work, `mnt-${fileSystem}`),
    }));
    for (const { mountPoint } of mounts) fs.mkdirSync(mountPoint);
    const resultsFile = path.join(work, 'results.json');
    const init = path.join(work, 'init.sh');
    fs.writeFileSync(init, initScript(scenario, resultsFile, mounts), { mode: 0o755 });

    const args = [
      ...mounts.map(({ image }, index) => `ubd${index}=${image}`),
      'root=/dev/root',
      'rootfstype=hostfs',
      'rootflags=/',
      'rw',
      'mem=1G',
      'quiet',
      `init=${init}`,
      'con=null',
      'con0=fd:0,fd:1',
    ];
    const { console, bootMs, totalMs } = await boot(args, timeoutMs);
    if (!fs.existsSync(resultsFile)) throw new Error(`the guest wrote no results:\n${console}`);
    const byMount = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Record<string, unknown>;
    const results = Object.fromEntries(
      mounts.map(({ fileSystem, mountPoint }) => [fileSystem, byMount[mountPoint]]),
    ) as QuotaVmRun['results'];
    return { results, bootMs, totalMs, console };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function makeImage(work: string, fileSystem: QuotaFileSystem): string {
  const image = path.join(work, `${fileSystem}.img`);
  fs.writeFileSync(image, '');
  fs.truncateSync(image, IMAGE_BYTES);
  if (fileSystem === 'ext4') {
    execFileSync(which('mkfs.ext4') ?? 'mkfs.ext4', ['-q', '-F', '-O', 'quota,project', image]);
  } else {
    execFileSync(which('mkfs.xfs') ?? 'mkfs.xfs', ['-q', '-f', image]);
  }
  return image;
}

function initScript(
  scenario: string,
  resultsFile: string,
  mounts: ReadonlyArray<{ device: string; mountPoint: string }>,
): string {
  const modules = quotaModules() ?? [];
  return [
    '#!/bin/sh',
    `export PATH=${SEARCH_PATH.join(':')}`,
    'mount -t proc proc /proc',
    'echo GUEST-STARTED',
    ...modules.map((module) => `insmod ${module}`),
    ...mounts.map(({ device, mountPoint }) => `mount -o prjquota ${device} ${mountPoint}`),
    `${process.execPath} ${scenario} ${DRIVER_MODULE} ${resultsFile} ${mounts
      .map(({ mountPoint }) => mountPoint)
      .join(' ')}`,
    ...mounts.map(({ mountPoint }) => `umount ${mountPoint}`),
    'halt -f',
    '',
  ].join('\n');
}

/** Runs the guest to its halt; kills it (its whole process group) past the timeout. */
function boot(
  args: readonly string[],
  timeoutMs: number,
): Promise<{ console: string; bootMs: number; totalMs: number }> {
  const started = Date.now();
  let bootMs = -1;
  let console = '';
  const guest = spawn(which('linux.uml') ?? 'linux.uml', args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const collect = (chunk: Buffer): void => {
    console += chunk.toString();
    if (bootMs < 0 && console.includes('GUEST-STARTED')) bootMs = Date.now() - started;
  };
  guest.stdout.on('data', collect);
  guest.stderr.on('data', collect);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (guest.pid) process.kill(-guest.pid, 'SIGKILL');
      reject(new Error(`the guest did not halt within ${timeoutMs} ms:\n${console}`));
    }, timeoutMs);
    guest.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    guest.on('exit', () => {
      clearTimeout(timer);
      resolve({ console, bootMs, totalMs: Date.now() - started });
    });
  });
}
