import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { QUOTA_SNAPSHOT_EVERY, quotaStream } from '#hawser/domain';
import { SqliteSnapshotStore } from '#hawser/eventstore';
import { loadConfig } from '#hawser/platform';
import { createHawserApp } from './hawser.app.js';
import { ADMIN_TOKEN, manilaRequest } from './test-support/manila-http.js';
import { eventually } from './test-support/hawser-test-server.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const PROJECT = '66666666666666666666666666666666';
const MEMBER = `dave:${PROJECT}:member`;
const OTHER_MEMBER = 'erin:77777777777777777777777777777777:member';
/** Enough shares for the quota stream to have a snapshot and events after it. */
const LIMIT = QUOTA_SNAPSHOT_EVERY + 12;

describe('a long quota stream over HTTP, with its snapshot, after a restart and without it', () => {
  let dataDir: string;
  let app: NestExpressApplication;
  let url: string;
  const snapshotFile = () => path.join(dataDir, 'snapshots.sqlite');

  const start = async () => {
    const config = loadConfig({ HAWSER_DATA_DIR: dataDir, HAWSER_AUTH: 'noauth' });
    app = await createHawserApp(config, simulatedBackends(), { logger: false });
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  };
  const request = (method: string, route: string, body?: unknown, token = ADMIN_TOKEN) =>
    manilaRequest(url, method, route, body, { token });
  const createShare = (token = MEMBER) =>
    request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: 'default' } },
      token,
    );
  /** A share of another project placed and created: the service is past its start-up. */
  const placing = async () => {
    const created = await createShare(OTHER_MEMBER);
    expect(created.status).toBe(200);
    await eventually(async () => {
      const show = await request('GET', `/v2/shares/${created.body.share.id}`);
      return show.body.share.status === 'available' ? true : undefined;
    });
  };
  const inUse = async () =>
    (await request('GET', `/v2/quota-sets/${PROJECT}/detail`)).body.quota_set.shares.in_use;
  const refusal = {
    overLimit: {
      code: 413,
      message: `ShareLimitExceeded: Maximum number of shares allowed (${LIMIT}) exceeded.`,
      retryAfter: '0',
    },
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-quota-snapshots-'));
    await start();
    const type = await request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    const set = await request('PUT', `/v2/quota-sets/${PROJECT}`, {
      quota_set: { shares: LIMIT, gigabytes: 10 * LIMIT },
    });
    expect(set.status).toBe(200);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const restart = async (withoutSnapshots: boolean) => {
    await placing();
    await app.close();
    if (withoutSnapshots) {
      for (const suffix of ['', '-wal', '-shm'])
        fs.rmSync(snapshotFile() + suffix, { force: true });
    }
    await start();
  };

  it('counts every share up to the limit and refuses the next, with the snapshot written', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect((await createShare()).status).toBe(200);
    const refused = await createShare();
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual(refusal);
    const snapshots = new SqliteSnapshotStore(snapshotFile());
    const snapshot = await snapshots.read(quotaStream(PROJECT));
    await snapshots.close();
    expect(snapshot?.revision).toBeGreaterThanOrEqual(QUOTA_SNAPSHOT_EVERY - 1);
    // Room for a loaded machine: sixty-odd creates one after another.
  }, 180_000);

  it.each([
    ['from the snapshot it wrote', false],
    ['with the snapshot file deleted', true],
  ])('after a restart %s, still refuses the next share', async (_, withoutSnapshots) => {
    await restart(withoutSnapshots);
    expect(fs.existsSync(snapshotFile())).toBe(true);
    const refused = await createShare();
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual(refusal);
    expect(await inUse()).toBe(LIMIT);
  });

  it('releases a deleted share, and counts the next one in its place', async () => {
    await restart(true);
    const listed = await request('GET', '/v2/shares', undefined, MEMBER);
    const [first] = listed.body.shares as { id: string }[];
    await eventually(async () => {
      const show = await request('GET', `/v2/shares/${first!.id}`, undefined, MEMBER);
      return show.body.share.status === 'available' ? true : undefined;
    });
    expect((await request('DELETE', `/v2/shares/${first!.id}`, undefined, MEMBER)).status).toBe(
      202,
    );
    await eventually(async () => ((await inUse()) === LIMIT - 1 ? true : undefined));
    expect((await createShare()).status).toBe(200);
    expect((await createShare()).status).toBe(413);
    expect(await inUse()).toBe(LIMIT);
  });
});
