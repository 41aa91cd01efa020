import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HawserProcess, freePort } from './test-support/hawser-process.js';
import { fromSnapshotBackends } from './test-support/from-snapshot-backends.js';
import { manilaRequest } from './test-support/manila-http.js';
import { migrationSteps, sha256 } from './test-support/share-migration.js';

const MIB = 1024 * 1024;
const COPIED = 12 * MIB;
const CHARLIE = 'node-az2@charlie#pool1';

/*
 * The all-in-one service as a child process, killed by its own fault injection (SIGKILL) at two
 * named steps: right after the first progress of a host-assisted copy was recorded (part of the
 * data at the destination), and right after `migration_complete` switched the share to the new
 * instance, before the source is deleted. After each restart the migration goes on, the source
 * is never lost before completion, and the share never has two available instances.
 */
describe('share migration across a SIGKILL', () => {
  let dir: string;
  let service: HawserProcess | undefined;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-migration-crash-'));
    // Copies capped at 2 MiB/s, so the 12 MiB copy reports progress before it ends.
    fs.writeFileSync(
      path.join(dir, 'backends.json'),
      JSON.stringify(fromSnapshotBackends(dir, 2 * MIB)),
    );
  });
  afterAll(async () => {
    await service?.kill().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('resumes a copy killed after its first progress and a completion killed before the source was deleted, ending with the data on the new pool and one instance', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      HAWSER_DATA_DIR: path.join(dir, 'data'),
      HAWSER_BACKENDS: path.join(dir, 'backends.json'),
      HAWSER_AUTH: 'noauth',
      HAWSER_SHARE_STATUS_POLL_MS: '100',
    };
    /** A start armed to kill itself at `killAt`, if given. */
    const restart = async (killAt?: string) => {
      service = new HawserProcess({
        ...env,
        ...(killAt !== undefined && { HAWSER_FAULT_INJECTION_KILL_AT: killAt }),
      });
      // Generous: six builds may share the machine's two cores.
      await service.start(60_000);
    };
    const hawser = {
      request: (method: string, route: string, body?: unknown, options = {}) =>
        manilaRequest(base, method, route, body, options),
    };
    const m = migrationSteps(hawser);
    const instances = async (shareId: string) =>
      (await hawser.request('GET', `/v2/shares/${shareId}/instances`)).body.share_instances as {
        id: string;
        status: string;
        host: string;
      }[];

    await restart('after-progress-recorded:migration');
    const type = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'anywhere', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    const source = await m.shareWithData('anywhere', COPIED);
    const host = (await m.show(source.shareId)).host;
    const target = host === CHARLIE ? 'node-az1@alpha#pool2' : CHARLIE;

    expect((await m.start(source.shareId, target)).status).toBe(202);
    // Killed by itself once a poll recorded some of the data copied.
    expect(await service?.exited()).toBe('SIGKILL');
    // The target pool holds one share: the destination, part of the data copied.
    const [backend, pool] = target.split('#') as [string, string];
    const targetShares = path.join(dir, 'pools', backend, pool, 'shares');
    const [destinationId, ...others] = fs.readdirSync(targetShares);
    expect(others).toEqual([]);
    const partial = path.join(targetShares, destinationId!);
    const copiedSoFar = fs.statSync(path.join(partial, 'data.bin')).size;
    expect(copiedSoFar).toBeGreaterThan(0);
    expect(copiedSoFar).toBeLessThan(COPIED);
    expect(sha256(path.join(source.dir, 'data.bin'))).toBe(source.checksum);

    await restart('before-source-deleted:migration');
    await m.waitForTaskState(source.shareId, 'data_copying_completed', 60_000);
    expect(sha256(path.join(partial, 'data.bin'))).toBe(source.checksum);
    expect((await instances(source.shareId)).map((i) => i.status).sort()).toEqual([
      'migrating',
      'migrating_to',
    ]);

    // The answer may or may not leave before the process kills itself: the kill is the proof.
    await m.action(source.shareId, { migration_complete: null }).catch(() => undefined);
    expect(await service?.exited()).toBe('SIGKILL');
    // Killed mid-completion: the share was switched, the source's data not yet deleted.
    expect(sha256(path.join(source.dir, 'data.bin'))).toBe(source.checksum);

    await restart();
    const completing = await instances(source.shareId);
    expect(completing.filter((i) => i.status === 'available')).toHaveLength(1);
    const done = await m.waitForTaskState(source.shareId, 'migration_success', 60_000);
    expect(done).toMatchObject({ status: 'available', host: target });
    expect(await instances(source.shareId)).toEqual([
      expect.objectContaining({ id: destinationId, status: 'available', host: target }),
    ]);
    const moved = await m.directoryOf(source.shareId);
    expect(moved).toBe(partial);
    expect(sha256(path.join(moved, 'data.bin'))).toBe(source.checksum);
    expect(fs.existsSync(source.dir)).toBe(false);
    await service?.kill();
    service = undefined;
  }, 180_000);
});
