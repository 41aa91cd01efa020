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

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../../../..');
const DRIVER_MODULE = path.join(ROOT, 'dist/libs/drivers/src/local/local.driver.js');
const SCENARIO = path.join(HERE, 'quota-guest-scenario.ts');
const GUEST_CONTRACT = path.join(HERE, 'quota-guest.contract.ts');
const UML_MODULES = '/usr/lib/uml/modules';
const SEARCH_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
/** Sparse images: room for the scenario's and the contract's shares; they cost what is written. */
const IMAGE_BYTES = 8 * 1024 ** 3;
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

/** A file system of the guest: its image, its device inside, where it is mounted. */
interface GuestMount {
  readonly fileSystem: QuotaFileSystem;
  readonly image: string;
  readonly device: string;
  readonly mountPoint: string;
}

export interface QuotaGuestRun<T> {
  /** What the guest's commands left behind, by file system. */
  readonly results: Record<QuotaFileSystem, T>;
  /** From starting the guest to its first user-space step. */
  readonly bootMs: number;
  /** The whole run, guest start to halt. */
  readonly totalMs: number;
  /** The guest console, for failure messages. */
  readonly console: string;
}

/**
 * Boots the guest with one fresh image per file system mounted with `prjquota` under a
 * work directory, runs `commands` (shell lines, as root) and reads each file system's
 * `<work>/<fs>.json` once it has halted.
 */
async function runQuotaGuest<T>(
  fileSystems: readonly QuotaFileSystem[],
  commands: (work: string, mounts: readonly GuestMount[]) => Promise<string[]>,
  options: { readonly memory: string; readonly timeoutMs: number },
): Promise<QuotaGuestRun<T>> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-quota-vm-'));
  // Unprivileged writers in the guest must reach their script and the mount points.
  fs.chmodSync(work, 0o755);
  try {
    const mounts = fileSystems.map((fileSystem, index) => ({
      fileSystem,
      image: makeImage(work, fileSystem),
      device: `/dev/${GUEST_DEVICES[index]}`,
      mountPoint: path.join(work, `mnt-${fileSystem}`),
    }));
    for (const { mountPoint } of mounts) fs.mkdirSync(mountPoint);
    const init = path.join(work, 'init.sh');
    fs.writeFileSync(init, initScript(mounts, await commands(work, mounts)), { mode: 0o755 });

    const args = [
      ...mounts.map(({ image }, index) => `ubd${index}=${image}`),
      'root=/dev/root',
      'rootfstype=hostfs',
      'rootflags=/',
      'rw',
      `mem=${options.memory}`,
      'quiet',
      `init=${init}`,
      'con=null',
      'con0=fd:0,fd:1',
    ];
    const { console, bootMs, totalMs } = await boot(args, options.timeoutMs);
    const results = Object.fromEntries(
      mounts.map(({ fileSystem }) => {
        const file = path.join(work, `${fileSystem}.json`);
        if (!fs.existsSync(file)) throw new Error(`the guest wrote no ${file}:\n${console}`);
        return [fileSystem, JSON.parse(fs.readFileSync(file, 'utf8')) as T];
      }),
    ) as Record<QuotaFileSystem, T>;
    return { results, bootMs, totalMs, console };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The driver scenario (quota-guest-scenario.ts, compiled with swc to run on the build) on
 * each file system: what it found, by file system. Needs the build (`npm run build`).
 */
export function runQuotaScenario(
  fileSystems: readonly QuotaFileSystem[],
  // About 60 s on a quiet 2-core machine, 75 s or more beside the other Jest worker's files.
  timeoutMs = 240_000,
): Promise<QuotaGuestRun<Record<string, unknown>>> {
  return runQuotaGuest(
    fileSystems,
    async (work, mounts) => {
      if (!fs.existsSync(DRIVER_MODULE)) throw new Error(`${DRIVER_MODULE} missing: npm run build`);
      const scenario = path.join(work, 'quota-guest-scenario.mjs');
      const { code } = await transformFile(SCENARIO, { jsc: { target: 'es2022' } });
      fs.writeFileSync(scenario, code);
      return mounts.map(({ fileSystem, mountPoint }) =>
        [
          process.execPath,
          scenario,
          DRIVER_MODULE,
          path.join(work, `${fileSystem}.json`),
          mountPoint,
        ].join(' '),
      );
    },
    { memory: '1G', timeoutMs },
  );
}

/** Jest's summary of a run (its --json output, the part read here). */
export interface JestSummary {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly numPendingTests: number;
  readonly testResults: ReadonlyArray<{ readonly message: string }>;
}

/**
 * The share driver contract (quota-guest.contract.ts) run by Jest inside the guest on each file
 * system: Jest's summary, by file system. Slow: every tool the driver runs is a new process,
 * which costs a User-mode Linux guest far more than a host.
 */
export function runContractInQuotaGuest(
  fileSystems: readonly QuotaFileSystem[],
  timeoutMs: number,
): Promise<QuotaGuestRun<JestSummary>> {
  return runQuotaGuest<JestSummary>(
    fileSystems,
    async (work, mounts) => [
      `cd ${ROOT}`,
      ...mounts.map(({ fileSystem, mountPoint }) =>
        [
          `HAWSER_QUOTA_GUEST_MOUNT=${mountPoint}`,
          process.execPath,
          '--experimental-vm-modules',
          '--no-warnings=ExperimentalWarning',
          'node_modules/jest/bin/jest.js',
          '--ci',
          '--runInBand',
          `--testMatch '**/${path.basename(GUEST_CONTRACT)}'`,
          '--json',
          `--outputFile ${path.join(work, `${fileSystem}.json`)}`,
        ].join(' '),
      ),
    ],
    { memory: '2G', timeoutMs },
  );
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

function initScript(mounts: readonly GuestMount[], commands: readonly string[]): string {
  const modules = quotaModules() ?? [];
  return [
    '#!/bin/sh',
    `export PATH=${SEARCH_PATH.join(':')}`,
    'mount -t proc proc /proc',
    'echo GUEST-STARTED',
    ...modules.map((module) => `insmod ${module}`),
    ...mounts.map(({ device, mountPoint }) => `mount -o prjquota ${device} ${mountPoint}`),
    ...commands,
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
