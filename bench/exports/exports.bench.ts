import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalBackendConfig } from '#hawser/drivers';
import { loadConfig } from '#hawser/platform';
import { createHawserApp } from '../../apps/hawser/src/hawser.app.js';
import { freePort } from '../../libs/drivers/src/local/test-support/nfs-tools.js';
import { median, round } from '../scheduler/bench-statistics.js';
import { exitWithUsageIfAsked } from '../usage.js';

/** What the bench does and its options, printed by `--help`. */
const USAGE = `
Real exports on a local back end served by the share node's own ganesha.nfsd and smbd:
- \`throughput\`: one file of \`--size-mib\` MiB (default 1024) copied into the share and back out
  to the local disk with libnfs' nfs-cp, against the same two copies from disk to disk
  (fsync'd; reads of a file just written come from the page cache on both sides);
- \`cifs throughput\`: the same file into a CIFS share and back out with smbclient (a guest let
  in by an ip rule);
- \`allow\`: \`--samples\` times (default 5), the time from POST allow_access to the first client
  let in (nfs-ls polled every 20 ms), over HTTP against the all-in-one service.
Needs ganesha.nfsd, nfs-cp, smbd, smbclient and root; prints one JSON line per measure.
`;
exitWithUsageIfAsked(USAGE);

const argument = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const SIZE_MIB = argument('--size-mib', 1024);
const SAMPLES = argument('--samples', 5);
const TOKEN = 'admin:0123456789abcdef0123456789abcdef:admin,member,reader';
const MIB = 1024 * 1024;

const runWithOutput = (
  command: string,
  args: readonly string[],
): Promise<{ code: number; stderr: string }> =>
  new Promise((resolve) =>
    execFile(command, [...args], { timeout: 600_000, maxBuffer: 16 * MIB }, (error, _out, stderr) =>
      resolve({ code: error ? 1 : 0, stderr: stderr.trim() }),
    ),
  );
const run = async (command: string, args: readonly string[]): Promise<number> =>
  (await runWithOutput(command, args)).code;

const timed = async (work: () => Promise<void>): Promise<number> => {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
};

const mustRun = async (command: string, args: readonly string[]): Promise<void> => {
  if ((await run(command, args)) !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
};

const writeSource = async (file: string): Promise<void> => {
  const chunk = randomBytes(MIB);
  const handle = await fs.promises.open(file, 'w');
  try {
    for (let i = 0; i < SIZE_MIB; i += 1) await handle.write(chunk);
    await handle.sync();
  } finally {
    await handle.close();
  }
};

const copyLocally = async (source: string, target: string): Promise<void> => {
  await fs.promises.copyFile(source, target);
  const handle = await fs.promises.open(target, 'r+');
  await handle.sync();
  await handle.close();
};

const report = (measure: Record<string, unknown>) =>
  console.log(JSON.stringify({ bench: 'exports', ...measure }));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-exports-'));
const port = await freePort();
const smbPort = await freePort();
const backend: LocalBackendConfig = {
  name: 'bench@nfs',
  driver: 'local',
  availabilityZone: 'az-1',
  pools: [{ name: 'p1' }],
  options: {
    root: path.join(dataDir, 'pools'),
    nfsServer: { address: '127.0.0.1', port, bindAddress: '127.0.0.1' },
    cifsServer: { address: '127.0.0.1', port: smbPort, bindAddress: '127.0.0.1' },
  },
};
const app = await createHawserApp(loadConfig({ HAWSER_DATA_DIR: dataDir }), [backend], {
  logger: false,
});
await app.listen(0, '127.0.0.1');
const base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
const call = async <T = unknown>(method: string, route: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      'X-Auth-Token': TOKEN,
      'X-OpenStack-Manila-API-Version': '2.72',
      'Content-Type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status >= 300) throw new Error(`${method} ${route}: ${await response.text()}`);
  return (await response.json()) as T;
};
const until = async <T>(check: () => Promise<T | undefined>, what: string): Promise<T> => {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const availableShare = async (
  protocol: 'NFS' | 'CIFS' = 'NFS',
): Promise<{ id: string; location: string; dir: string }> => {
  const id = (
    await call<{ share: { id: string } }>('POST', '/v2/shares', {
      share: { share_proto: protocol, size: Math.ceil(SIZE_MIB / 1024) + 1, share_type: 'bench' },
    })
  ).share.id;
  await until(
    async () =>
      (await call<{ share: { status: string } }>('GET', `/v2/shares/${id}`)).share.status ===
      'available'
        ? true
        : undefined,
    'the share to be available',
  );
  const { export_locations: locations } = await call<{
    export_locations: { path: string; is_admin_only: boolean }[];
  }>('GET', `/v2/shares/${id}/export_locations`);
  return {
    id,
    location: locations.find((l) => !l.is_admin_only)?.path as string,
    dir: locations.find((l) => l.is_admin_only)?.path as string,
  };
};
const nfsUrl = (location: string, file = '') =>
  `nfs://${location.replace(':/', '/')}${file ? `/${file}` : ''}?version=4&nfsport=${port}`;
const allow = async (shareId: string) =>
  (
    await call<{ access: { id: string } }>('POST', `/v2/shares/${shareId}/action`, {
      allow_access: { access_type: 'ip', access_to: '127.0.0.1', access_level: 'rw' },
    })
  ).access.id;

try {
  await call('POST', '/v2/types', {
    share_type: { name: 'bench', extra_specs: { driver_handles_share_servers: 'false' } },
  });

  const share = await availableShare();
  await allow(share.id);
  await until(
    async () => ((await run('nfs-ls', [nfsUrl(share.location)])) === 0 ? true : undefined),
    'the client to be let in',
  );
  const scratch = path.join(dataDir, 'scratch');
  fs.mkdirSync(scratch);
  const source = path.join(scratch, 'source.bin');
  await writeSource(source);
  const localWriteS = await timed(() => copyLocally(source, path.join(scratch, 'local-copy.bin')));
  const localReadS = await timed(() =>
    copyLocally(path.join(scratch, 'local-copy.bin'), path.join(scratch, 'local-read.bin')),
  );
  fs.rmSync(path.join(scratch, 'local-copy.bin'));
  fs.rmSync(path.join(scratch, 'local-read.bin'));
  const mibPerS = (seconds: number) => round(SIZE_MIB / seconds, 1);
  const started = performance.now();
  const written = await runWithOutput('nfs-cp', [source, nfsUrl(share.location, 'f.bin')]);
  const nfsWriteS = (performance.now() - started) / 1000;
  // Read through NFS the file as the share holds it, written there on the server's disk when
  // the client could not write it.
  if (written.code !== 0) await copyLocally(source, path.join(share.dir, 'f.bin'));
  const readBack = path.join(scratch, 'read-back.bin');
  const nfsReadS = await timed(() =>
    mustRun('nfs-cp', [nfsUrl(share.location, 'f.bin'), readBack]),
  );
  if (fs.statSync(readBack).size !== SIZE_MIB * MIB) throw new Error('the file read back is short');
  report({
    measure: 'throughput',
    sizeMiB: SIZE_MIB,
    localWriteMiBps: mibPerS(localWriteS),
    nfsWriteMiBps: written.code === 0 ? mibPerS(nfsWriteS) : null,
    ...(written.code === 0 ? {} : { nfsWriteFailed: written.stderr }),
    localReadMiBps: mibPerS(localReadS),
    nfsReadMiBps: mibPerS(nfsReadS),
  });

  const cifsShare = await availableShare('CIFS');
  await allow(cifsShare.id);
  const service = cifsShare.location.replace(/\\/g, '/');
  const smb = (command: string) =>
    runWithOutput('smbclient', [service, '-p', String(smbPort), '-N', '-c', command]);
  await until(async () => ((await smb('ls')).code === 0 ? true : undefined), 'the guest let in');
  const cifsWriteS = await timed(async () => {
    const put = await smb(`put ${source} f.bin`);
    if (put.code !== 0) throw new Error(`smbclient put failed: ${put.stderr}`);
  });
  const cifsReadBack = path.join(scratch, 'cifs-read-back.bin');
  const cifsReadS = await timed(async () => {
    const got = await smb(`get f.bin ${cifsReadBack}`);
    if (got.code !== 0) throw new Error(`smbclient get failed: ${got.stderr}`);
  });
  if (fs.statSync(cifsReadBack).size !== SIZE_MIB * MIB) throw new Error('the CIFS read is short');
  report({
    measure: 'cifs throughput',
    sizeMiB: SIZE_MIB,
    cifsWriteMiBps: mibPerS(cifsWriteS),
    cifsReadMiBps: mibPerS(cifsReadS),
  });
  fs.rmSync(scratch, { recursive: true });

  const allowMs: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const target = await availableShare();
    const started = performance.now();
    await allow(target.id);
    await until(
      async () => ((await run('nfs-ls', [nfsUrl(target.location)])) === 0 ? true : undefined),
      'the client to be let in',
    );
    allowMs.push(performance.now() - started);
  }
  report({
    measure: 'allow_access to client let in',
    samples: SAMPLES,
    medianMs: round(median(allowMs), 1),
    maxMs: round(Math.max(...allowMs), 1),
  });
} finally {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
