/**
 * Runs inside the quota guest (see quota-vm.ts), as root, with node's built output: drives a
 * local back end whose pool sits on a file system mounted with project quotas and writes as an
 * unprivileged user, the way a tenant's data arrives. Prints nothing; writes its findings as
 * JSON to the file named on the command line.
 *
 *   node quota-guest-scenario.mjs <local.driver.js> <results.json> <mount point>
 *   node quota-guest-scenario.mjs write <file> <bytes>     (the unprivileged writer)
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type * as LocalDriverModule from '../local.driver.js';
import type { ShareInstanceRef, SnapshotInstanceRef } from '../../contract/share-driver.js';

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const TENANT = 65534;
const ROOT = 0;
const script = process.argv[1] ?? '';
const execFileAsync = promisify(execFile);

/** What one unprivileged write achieved: bytes that landed and the errno that stopped it. */
interface WriteOutcome {
  readonly writtenBytes: number;
  readonly error: string | null;
}

async function writeAs(uid: number, file: string, bytes: number): Promise<WriteOutcome> {
  const { stdout } = await execFileAsync(process.execPath, [script, 'write', file, String(bytes)], {
    uid,
    gid: uid,
  });
  return JSON.parse(stdout) as WriteOutcome;
}

/** The writer itself: appends zeros in 4 MiB steps until done or refused, fsync included. */
async function write(file: string, bytes: number): Promise<void> {
  const chunk = Buffer.alloc(4 * MIB);
  let writtenBytes = 0;
  let error: string | null = null;
  let handle: fs.FileHandle | undefined;
  try {
    // A full XFS project refuses even the new file's inode.
    handle = await fs.open(file, 'a');
    while (writtenBytes < bytes) {
      const { bytesWritten } = await handle.write(
        chunk,
        0,
        Math.min(chunk.length, bytes - writtenBytes),
      );
      writtenBytes += bytesWritten;
    }
    await handle.sync();
  } catch (failure) {
    error = errnoName(failure);
  } finally {
    await handle?.close().catch(() => undefined);
  }
  process.stdout.write(JSON.stringify({ writtenBytes, error } satisfies WriteOutcome));
}

/** libuv has no name for EDQUOT, so the name comes from the number. */
function errnoName(failure: unknown): string {
  const errno = (failure as { errno?: number }).errno;
  const name = Object.entries(os.constants.errno).find(([, value]) => value === -(errno ?? 0));
  return name?.[0] ?? String(failure);
}

/** Hard block limits (bytes) of every project on the file system, from repquota. */
async function hardLimits(mountPoint: string): Promise<Record<string, number>> {
  const { stdout } = await execFileAsync('repquota', ['-P', '-n', '-O', 'csv', mountPoint]);
  const [header, ...rows] = stdout.trim().split('\n');
  const columns = header?.split(',') ?? [];
  const limits: Record<string, number> = {};
  for (const row of rows) {
    const cells = row.split(',');
    const limit = Number(cells[columns.indexOf('BlockHardLimit')]) * 1024;
    if (limit > 0) limits[cells[columns.indexOf('Project')] ?? '?'] = limit;
  }
  return limits;
}

async function outcome(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

async function exercise(
  { LocalShareDriver }: typeof LocalDriverModule,
  mountPoint: string,
): Promise<Record<string, unknown>> {
  const start = async (): Promise<InstanceType<typeof LocalShareDriver>> => {
    const started = new LocalShareDriver({
      driver: 'local',
      name: 'guest@quota',
      availabilityZone: 'az-1',
      pools: [{ name: 'p1' }],
      options: { root: path.join(mountPoint, 'hawser') },
    });
    await started.initialize();
    return started;
  };
  let driver = await start();
  const share: ShareInstanceRef = {
    shareId: randomUUID(),
    instanceId: randomUUID(),
    sizeGiB: 1,
    protocol: 'NFS',
    host: 'guest@quota#p1',
  };
  const commandId = (): string => `cmd-${randomUUID()}`;
  const dir = driver.shareDirectory(share.host, share.instanceId);
  const stats = await driver.getPoolStats({ commandId: commandId() });
  const findings: Record<string, unknown> = {
    sizeEnforcement: await driver.sizeEnforcement('p1'),
    poolCapability: stats.pools[0]?.capabilities.size_enforcement,
  };

  await driver.createShare({ commandId: commandId(), share });
  await fs.chown(dir, TENANT, TENANT);
  findings.limitsAfterCreate = await hardLimits(mountPoint);
  findings.writePastSize = await writeAs(TENANT, path.join(dir, 'first'), 1.5 * GIB);
  findings.statusWhenFull = (await driver.getShareStatus({ commandId: commandId(), share })).usage;
  findings.rootWriteWhenFull = await writeAs(ROOT, path.join(dir, 'by-root'), 16 * MIB);
  await fs.rm(path.join(dir, 'by-root'), { force: true });

  await driver.extendShare({ commandId: commandId(), share, newSizeGiB: 2 });
  findings.limitsAfterExtend = await hardLimits(mountPoint);
  findings.writeAfterExtend = await writeAs(TENANT, path.join(dir, 'second'), 256 * MIB);
  const extended = { ...share, sizeGiB: 2 };

  findings.shrinkBelowData = await outcome(() =>
    driver.shrinkShare({ commandId: commandId(), share: extended, newSizeGiB: 1 }),
  );
  await fs.rm(path.join(dir, 'first'));
  findings.shrinkAboveData = await outcome(() =>
    driver.shrinkShare({ commandId: commandId(), share: extended, newSizeGiB: 1 }),
  );
  findings.limitsAfterShrink = await hardLimits(mountPoint);
  findings.statusAfterShrink = (
    await driver.getShareStatus({ commandId: commandId(), share })
  ).usage;

  const shrunk = { ...share, sizeGiB: 1 };
  // A limit lost on disk (as by a crash between changing it and recording the new size) is
  // set again from the metadata when a restarted driver ensures its shares.
  const [project] = Object.keys(findings.limitsAfterShrink as object);
  await execFileAsync('setquota', ['-P', project?.slice(1) ?? '', '0', '0', '0', '0', mountPoint]);
  findings.limitsAfterLoss = await hardLimits(mountPoint);
  await driver.close();
  driver = await start();
  findings.ensured = (
    await driver.ensureShares({ commandId: commandId(), shares: [shrunk] })
  ).shares.map(({ outcome }) => outcome);
  findings.limitsAfterEnsure = await hardLimits(mountPoint);

  const snapshot: SnapshotInstanceRef = {
    snapshotId: randomUUID(),
    snapshotInstanceId: randomUUID(),
    shareId: share.shareId,
    shareInstanceId: share.instanceId,
    sizeGiB: 1,
  };
  await driver.createSnapshot({ commandId: commandId(), snapshot, share: shrunk });
  const copy: ShareInstanceRef = { ...share, shareId: randomUUID(), instanceId: randomUUID() };
  await driver.createShareFromSnapshot({
    commandId: commandId(),
    share: copy,
    snapshot,
    parentShare: shrunk,
  });
  findings.limitsWithSnapshotAndCopy = await hardLimits(mountPoint);
  findings.statusWithSnapshot = (
    await driver.getShareStatus({ commandId: commandId(), share: shrunk })
  ).usage;
  findings.copyStatus = (
    await driver.getShareStatus({ commandId: commandId(), share: copy })
  ).usage;
  await driver.deleteShare({ commandId: commandId(), share: copy });
  await driver.deleteSnapshot({ commandId: commandId(), snapshot, share: shrunk });

  findings.deleted = await driver.deleteShare({ commandId: commandId(), share: shrunk });
  findings.limitsAfterDelete = await hardLimits(mountPoint);
  await driver.close();
  return findings;
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'write') {
    await write(rest[0] ?? '', Number(rest[1]));
    return;
  }
  const [resultsFile, mountPoint] = rest;
  const module = (await import(command ?? '')) as typeof LocalDriverModule;
  let findings: Record<string, unknown>;
  try {
    findings = await exercise(module, mountPoint ?? '');
  } catch (error) {
    findings = { failed: String((error as Error).stack ?? error) };
  }
  await fs.writeFile(resultsFile ?? '', JSON.stringify(findings, null, 2));
}

await main();
