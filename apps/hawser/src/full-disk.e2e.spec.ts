import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { OperationJournal } from '#hawser/drivers';
import {
  mountSmallFileSystem,
  smallFileSystemUnavailable,
  type SmallFileSystem,
} from '../../../libs/eventstore/src/test-support/small-file-system.js';
import { HawserProcess, MAIN, freePort } from './test-support/hawser-process.js';
import { manilaRequest, type ApiResponse } from './test-support/manila-http.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

/** Each test in a project of its own, so quota streams and listings start empty. */
const tokenOf = (project: string) => `admin:${project.padEnd(32, '0')}`;
const DRIVER_CREATE_MS = 3_000;
const unavailable = smallFileSystemUnavailable();
const skip = unavailable ? ` (skipped: ${unavailable})` : '';
const describeMounted = unavailable ? describe.skip : describe;

/** Polls `read` until `check` holds (bounded), returning what it read last. */
const until = async <T>(read: () => T | Promise<T>, check: (value: T) => boolean, ms = 90_000) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await delay(100);
  }
};

/**
 * The all-in-one service with its data directory on a small tmpfs the spec fills up: requests
 * that would write are answered 503 saying the disk is full and change nothing, reads keep
 * answering, and a share whose driver finished while the disk was full becomes available once
 * space is back, without a restart. Then the service refuses to start on the file system
 * remounted read-only, in one line naming the directory.
 */
describeMounted(`the all-in-one service on a full disk${skip}`, () => {
  let small: SmallFileSystem;
  let dir: string;
  let dataDir: string;
  let service: HawserProcess;
  let base: string;
  const call = (project: string, method: string, route: string, body?: unknown) =>
    manilaRequest(base, method, route, body, { token: tokenOf(project) });
  const createShare = (project: string) =>
    call(project, 'POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default' },
    });
  const journalEntries = () =>
    fs
      .readdirSync(dir)
      .filter((file) => file.startsWith('journal-'))
      .flatMap((file) => OperationJournal.read(path.join(dir, file)));

  beforeAll(async () => {
    small = mountSmallFileSystem(64 * 1024 * 1024);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-full-disk-'));
    dataDir = path.join(small.mountPoint, 'data');
    // The back ends journal every call outside the small file system; creates take a while.
    const backends = simulatedBackends({ operationLatencyMs: { createShare: DRIVER_CREATE_MS } });
    const journalled = backends.map((b) => ({
      ...b,
      options: { ...b.options, journalFile: path.join(dir, `journal-${b.name}.jsonl`) },
    }));
    fs.writeFileSync(path.join(dir, 'backends.json'), JSON.stringify(journalled));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    service = new HawserProcess({
      PORT: String(port),
      HAWSER_DATA_DIR: dataDir,
      HAWSER_BACKENDS: path.join(dir, 'backends.json'),
      HAWSER_AUTH: 'noauth',
    });
    await service.start();
    const type = await call('admin', 'POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    try {
      await service?.stop();
    } finally {
      small?.free();
      small?.release();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  afterEach(() => small?.free());

  it('given a full disk, when a share is created, then it is a 503 saying so and nothing is recorded, reads keep answering, and it works once space is back', async () => {
    const project = 'a1';
    small.fill();

    const refused = await createShare(project);
    const listed = await call(project, 'GET', '/v2/shares/detail');

    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      serviceUnavailable: {
        code: 503,
        message: expect.stringContaining('out of disk space') as string,
      },
    });
    expect(listed.status).toBe(200);
    expect(listed.body.shares).toEqual([]);

    small.free();

    const quota = await call('admin', 'GET', `/hawser/v1/streams/quota-${project.padEnd(32, '0')}`);
    expect(quota.body.events ?? []).toEqual([]);
    const accepted = await createShare(project);
    expect(accepted.status).toBe(200);
  });

  it('given the disk fills while the driver creates a share, then the share stays creating and readable, and once space is back it is available without a restart, created once', async () => {
    const project = 'b2';
    const created = await createShare(project);
    expect(created.status).toBe(200);
    const shareId = created.body.share.id as string;
    const history = async () =>
      ((await call('admin', 'GET', `/hawser/v1/streams/share-${shareId}?limit=1000`)).body.events ??
        []) as { type: string; id: string }[];
    const claimed = await until(history, (events) =>
      events.some((e) => e.type === 'ShareDriverOperationStarted'),
    );
    expect(claimed.map((e) => e.type)).toContain('ShareDriverOperationStarted');

    // The node claimed the create and the driver is at work: the disk fills now.
    small.fill();
    const createCalls = () =>
      journalEntries().filter((e) => e.operation === 'createShare' && e.ids.includes(shareId));
    const done = await until(createCalls, (calls) => calls.length > 0);
    expect(done.map((c) => c.outcome)).toEqual(['ok']);
    const failed = await until(
      async () => service.output,
      (output) =>
        /ShareScheduled \S+ failed \(try \d+ of \d+\): database or disk is full/.test(output),
    );
    expect(failed).toMatch(/database or disk is full/);
    const whileFull: ApiResponse = await call(project, 'GET', `/v2/shares/${shareId}`);
    expect(whileFull.status).toBe(200);
    expect(whileFull.body.share.status).toBe('creating');

    small.free();

    const settled = await until(
      () => call(project, 'GET', `/v2/shares/${shareId}`),
      (response) => response.body.share?.status === 'available',
    );
    expect(settled.body.share.status).toBe('available');
    expect(createCalls().map((c) => c.outcome)).toEqual(['ok']);
    expect(service.output).not.toMatch(/computeFault|ERROR \[http\]/);
  }, 150_000);

  it('given the file system remounted read-only, then the service does not start and names the data directory and the reason in one line', async () => {
    await service.stop();
    small.remount('ro');
    try {
      const start = (dataDirectory: string) =>
        spawnSync(process.execPath, [MAIN], {
          env: { ...process.env, HAWSER_DATA_DIR: dataDirectory, HAWSER_AUTH: 'noauth', PORT: '0' },
          encoding: 'utf8',
          timeout: 30_000,
        });

      const existing = start(dataDir);
      const missingParent = start(path.join(small.mountPoint, 'missing', 'data'));

      expect(existing.status).toBe(1);
      expect(existing.stderr).toBe(
        `Hawser cannot start: data directory ${dataDir} is not writable: read-only file system (EROFS)\n`,
      );
      expect(missingParent.status).toBe(1);
      expect(missingParent.stderr).toBe(
        `Hawser cannot start: data directory ${path.join(small.mountPoint, 'missing', 'data')} cannot be created: read-only file system (EROFS)\n`,
      );
    } finally {
      small.remount('rw');
    }
  });
});
