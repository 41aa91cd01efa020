import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HawserProcess, freePort } from './test-support/hawser-process.js';
import { fromSnapshotBackends } from './test-support/from-snapshot-backends.js';
import { eventually } from './test-support/hawser-test-server.js';
import { manilaRequest } from './test-support/manila-http.js';
import { migrationSteps, sha256 } from './test-support/share-migration.js';

const MIB = 1024 * 1024;
const CHARLIE = 'node-az2@charlie#pool1';

/*
 * The all-in-one service as a child process, SIGKILLed in the middle of a host-assisted copy
 * and again in the middle of a completion: after each restart the migration goes on, the source
 * is never lost before completion, and the share never has two available instances.
 */
describe('share migration across a SIGKILL', () => {
  let dir: string;
  let service: HawserProcess | undefined;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-migration-crash-'));
    // Copies capped at 2 MiB/s, so a 12 MiB copy is killed half-way.
    fs.writeFileSync(
      path.join(dir, 'backends.json'),
      JSON.stringify(fromSnapshotBackends(dir, 2 * MIB)),
    );
  });
  afterAll(async () => {
    await service?.kill().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('resumes a copy killed half-way and a completion killed at once, ending with the data on the new pool and one instance', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_BACKENDS: path.join(dir, 'backends.json'),
      HAWSER_AUTH: 'noauth',
      HAWSER_SHARE_STATUS_POLL_MS: '100',
    };
    const restart = async () => {
      service = new HawserProcess(env);
      await service.start();
    };
    await restart();
    const hawser = {
      request: (method: string, route: string, body?: unknown, options = {}) =>
        manilaRequest(base, method, route, body, options),
    };
    const m = migrationSteps(hawser);
    const type = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'anywhere', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    const source = await m.shareWithData('anywhere', 12 * MIB);
    const host = (await m.show(source.shareId)).host;
    const target = host === CHARLIE ? 'node-az1@alpha#pool2' : CHARLIE;
    const availableInstances = async () =>
      (
        (await hawser.request('GET', `/v2/shares/${source.shareId}/instances`)).body
          .share_instances as { status: string }[]
      ).filter((i) => i.status === 'available').length;

    expect((await m.start(source.shareId, target)).status).toBe(202);
    await eventually(
      async () => ((await m.progress(source.shareId)).total_progress > 10 ? true : undefined),
      30_000,
      'the copy to be under way',
    );
    await service?.kill();
    expect(sha256(path.join(source.dir, 'data.bin'))).toBe(source.checksum);

    await restart();
    await m.waitForTaskState(source.shareId, 'data_copying_completed', 60_000);
    expect(fs.existsSync(source.dir)).toBe(true);
    expect(await availableInstances()).toBe(0);

    expect((await m.action(source.shareId, { migration_complete: null })).status).toBe(202);
    await service?.kill();

    await restart();
    const done = await m.waitForTaskState(source.shareId, 'migration_success', 60_000);
    expect(done).toMatchObject({ status: 'available', host: target });
    expect(await availableInstances()).toBe(1);
    const moved = await m.directoryOf(source.shareId);
    expect(sha256(path.join(moved, 'data.bin'))).toBe(source.checksum);
    expect(fs.existsSync(source.dir)).toBe(false);
    await service?.kill();
    service = undefined;
  }, 180_000);
});
