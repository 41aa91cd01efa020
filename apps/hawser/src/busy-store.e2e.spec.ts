import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { SqliteEventStore } from '#hawser/eventstore';
import { WriteLockHolder } from '../../../libs/eventstore/src/test-support/write-lock-holder.js';
import { startSimulatedHawser, type HawserProcess } from './test-support/hawser-process.js';
import { startHawser, type HawserTestServer } from './test-support/hawser-test-server.js';
import { manilaRequest } from './test-support/manila-http.js';

const PROJECT = '77777777777777777777777777777777';
const TOKEN = `admin:${PROJECT}`;
/** The event store's busy time-out: a held lock is waited for this long before the 503. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * The all-in-one service while another process holds the event log's write lock longer than
 * the store's busy time-out (as a long transaction of another process would): a create is
 * answered 503 saying the store is busy, with Retry-After, and records nothing and counts no
 * quota; once the lock is free the same create goes through.
 */
describe('the all-in-one service when another process holds the event log write lock', () => {
  let dir: string;
  let base: string;
  let service: HawserProcess;
  let holder: WriteLockHolder;
  const call = (method: string, route: string, body?: unknown) =>
    manilaRequest(base, method, route, body, { token: TOKEN });
  const createShare = () =>
    call('POST', '/v2/shares', { share: { share_proto: 'NFS', size: 1, share_type: 'default' } });
  const quotaOf = async () => {
    const detail = (await call('GET', `/v2/quota-sets/${PROJECT}/detail`)).body.quota_set;
    return { shares: detail.shares, gigabytes: detail.gigabytes };
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-busy-store-'));
    ({ service, base } = await startSimulatedHawser(dir));
    const type = await call('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    holder = new WriteLockHolder(path.join(dir, 'data', 'events.sqlite'));
  }, 60_000);

  afterAll(async () => {
    holder?.close();
    await service?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given the write lock held past the busy time-out, when a share is created, then it is a 503 with Retry-After, nothing is recorded, no quota is counted, and the create goes through once the lock is free', async () => {
    const quotaBefore = await quotaOf();
    holder.hold();
    const started = performance.now();

    const refused = await createShare();

    const waited = performance.now() - started;
    holder.release();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual({
      serviceUnavailable: {
        code: 503,
        message: expect.stringContaining('busy with other writes') as string,
      },
    });
    expect(waited).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS * 0.9);
    const quotaStream = await call('GET', `/hawser/v1/streams/quota-${PROJECT}`);
    expect(quotaStream.body.events ?? []).toEqual([]);
    expect((await call('GET', '/v2/shares/detail')).body.shares).toEqual([]);
    expect(await quotaOf()).toEqual(quotaBefore);
    expect(quotaBefore.shares).toMatchObject({ in_use: 0, reserved: 0 });
    expect(service.output).not.toMatch(/computeFault|ERROR \[http\]/);

    const accepted = await createShare();

    expect(accepted.status).toBe(200);
    expect((await quotaOf()).shares.in_use).toBe(1);
  }, 60_000);
});

/**
 * The lock taken by another connection right after the create's quota reservation is written,
 * and let go once the request's own append has given up: the request is a 503, and the quota it
 * counted is given back in the same request (the service in this process, so that the lock can
 * be taken between two of its appends).
 */
describe('a create whose request cannot be recorded after its quota was reserved', () => {
  let server: HawserTestServer;
  let holder: WriteLockHolder;
  const call = (method: string, route: string, body?: unknown) =>
    server.request(method, route, body, { token: TOKEN });

  beforeAll(async () => {
    server = await startHawser();
    const type = await call('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    holder = new WriteLockHolder(path.join(server.dataDir, 'events.sqlite'));
  }, 60_000);
  afterAll(async () => {
    jest.restoreAllMocks();
    holder?.close();
    await server?.close();
  });

  it('given the lock taken once the reservation is written, when the share is created, then it is a 503 and the reservation is released', async () => {
    const append = SqliteEventStore.prototype.append;
    jest.spyOn(SqliteEventStore.prototype, 'append').mockImplementation(async function (
      this: SqliteEventStore,
      streamId,
      events,
      options,
    ) {
      const onShare = streamId.startsWith('share-');
      try {
        const result = await append.call(this, streamId, events, options);
        if (events.some((event) => event.type === 'QuotaReserved')) holder.hold();
        return result;
      } catch (error) {
        if (onShare) holder.release();
        throw error;
      }
    });

    const refused = await call('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default' },
    });

    jest.restoreAllMocks();
    expect(refused.status).toBe(503);
    expect(refused.body.serviceUnavailable.message).toContain('busy with other writes');
    const quotaEvents = (await call('GET', `/hawser/v1/streams/quota-${PROJECT}`)).body.events as {
      type: string;
    }[];
    expect(quotaEvents.map((event) => event.type)).toEqual(['QuotaReserved', 'QuotaReleased']);
    const quota = (await call('GET', `/v2/quota-sets/${PROJECT}/detail`)).body.quota_set;
    expect(quota.shares).toMatchObject({ in_use: 0, reserved: 0 });
    expect((await call('GET', '/v2/shares/detail')).body.shares).toEqual([]);
  }, 60_000);
});
