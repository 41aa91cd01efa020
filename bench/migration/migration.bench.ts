import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BackendConfig } from '#hawser/drivers';
import { loadConfig } from '#hawser/platform';
import { createHawserApp } from '../../apps/hawser/src/hawser.app.js';
import { exitWithUsageIfAsked } from '../usage.js';

/** What the bench does and its options, printed by `--help`. */
const USAGE = `
A host-assisted migration of a share holding \`--mib\` MiB (1024 by default: 1 GiB) between two
local back ends under one root, over HTTP against the all-in-one service: the time from
migration_start to data_copying_completed, the copy rate, the total_progress values that
migration_get_progress answered, then migration_complete to migration_success, with the
destination's checksum compared to the source's. Prints one JSON line.
`;
exitWithUsageIfAsked(USAGE);

const MIB = 1024 * 1024;
const argument = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};

const backends = (dataDir: string): BackendConfig[] =>
  ['east', 'west'].map((name) => ({
    name: `bench@${name}`,
    driver: 'local' as const,
    availabilityZone: 'az-1',
    pools: [{ name: 'p1' }],
    options: { root: path.join(dataDir, 'pools') },
  }));

const sha256 = async (file: string): Promise<string> => {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

const main = async () => {
  const mib = argument('--mib', 1024);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-migration-'));
  const config = loadConfig({ HAWSER_DATA_DIR: dataDir, HAWSER_SHARE_STATUS_POLL_MS: '200' });
  const app = await createHawserApp(config, backends(dataDir), { logger: false });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: {
        'X-Auth-Token': 'bench:11111111111111111111111111111111',
        'X-OpenStack-Manila-API-Version': '2.29',
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return (text ? JSON.parse(text) : {}) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const share = async (id: string) => (await call('GET', `/v2/shares/${id}`)).share;
  const until = async (id: string, done: (s: Record<string, unknown>) => boolean) => {
    for (;;) {
      const current = await share(id);
      if (done(current)) return current;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  try {
    await call('POST', '/v2/types', {
      share_type: { name: 'bench', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    const size = Math.ceil(mib / 1024) + 1;
    const created = await call('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size, share_type: 'bench' },
    });
    const id = created.share.id as string;
    const source = await until(id, (s) => s.status === 'available');
    const locations = (await call('GET', `/v2/shares/${id}/export_locations`)).export_locations;
    const dir = (locations as { path: string; is_admin_only: boolean }[]).find(
      (l) => l.is_admin_only,
    )?.path as string;
    const file = path.join(dir, 'data.bin');
    const block = Buffer.alloc(MIB);
    const out = fs.openSync(file, 'w');
    for (let i = 0; i < mib; i++) {
      block.writeUInt32LE(i, 0);
      block.fill(i % 251, 4);
      fs.writeSync(out, block);
    }
    fs.closeSync(out);
    const checksum = await sha256(file);
    const destination = (source.host as string).includes('east')
      ? 'bench@west#p1'
      : 'bench@east#p1';

    const started = Date.now();
    await call('POST', `/v2/shares/${id}/action`, {
      migration_start: {
        host: destination,
        writable: false,
        preserve_metadata: false,
        nondisruptive: false,
        preserve_snapshots: false,
        force_host_assisted_migration: true,
      },
    });
    const progress: number[] = [];
    for (;;) {
      const answer = await call('POST', `/v2/shares/${id}/action`, {
        migration_get_progress: null,
      });
      if (typeof answer.total_progress === 'number' && progress.at(-1) !== answer.total_progress) {
        progress.push(answer.total_progress);
      }
      if (answer.task_state === 'data_copying_completed' || answer.task_state === 'migration_error')
        break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const copySeconds = (Date.now() - started) / 1000;
    const completing = Date.now();
    await call('POST', `/v2/shares/${id}/action`, { migration_complete: null });
    const done = await until(id, (s) => s.task_state === 'migration_success');
    const completeSeconds = (Date.now() - completing) / 1000;
    const moved = (await call('GET', `/v2/shares/${id}/export_locations`)).export_locations;
    const movedDir = (moved as { path: string; is_admin_only: boolean }[]).find(
      (l) => l.is_admin_only,
    )?.path as string;
    console.log(
      JSON.stringify({
        bytes: mib * MIB,
        from: source.host,
        to: done.host,
        copySeconds,
        mibPerSecond: Math.round((mib / copySeconds) * 10) / 10,
        completeSeconds,
        progressSeen: progress,
        checksumsEqual: (await sha256(path.join(movedDir, 'data.bin'))) === checksum,
        sourceGone: !fs.existsSync(dir),
      }),
    );
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

await main();
