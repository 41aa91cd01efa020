import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const MEMBER = 'frank:99999999999999999999999999999999:member,reader';

describe('scheduler-stats pools over HTTP (given four simulated back ends)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser();
    await eventually(async () => {
      const pools = await hawser.request('GET', '/v2/scheduler-stats/pools');
      return pools.body.pools?.length === 8 ? true : undefined;
    });
  });
  afterAll(() => hawser.close());

  const names = async (query: string, version?: string) => {
    const res = await hawser.request('GET', `/v2/scheduler-stats/pools${query}`, undefined, {
      version,
    });
    expect(res.status).toBe(200);
    return (res.body.pools as { name: string }[]).map((p) => p.name).sort();
  };

  it('lists pools with Manila fields, and capabilities in the detail', async () => {
    const list = await hawser.request('GET', '/v2/scheduler-stats/pools');
    expect(list.body.pools).toContainEqual({
      name: 'sim@a1#fast',
      host: 'sim',
      backend: 'a1',
      pool: 'fast',
    });
    const detail = await hawser.request('GET', '/v2/scheduler-stats/pools/detail');
    const pool = detail.body.pools.find((p: { name: string }) => p.name === 'sim@b2#slow');
    expect(pool.capabilities).toMatchObject({ pool_name: 'slow', total_capacity_gb: 2000 });
  });

  it('filters by prefix-anchored regular expressions; an unknown key excludes every pool', async () => {
    expect(await names('?backend=a')).toEqual([
      'sim@a1#fast',
      'sim@a1#slow',
      'sim@a2#fast',
      'sim@a2#slow',
    ]);
    expect(await names('?pool=f.*&backend=b2')).toEqual(['sim@b2#fast']);
    expect(await names('?name=sim@.1%23slow')).toEqual(['sim@a1#slow', 'sim@b1#slow']);
    expect(await names('?pool=ast')).toEqual([]);
    expect(await names('?bogus=1')).toEqual([]);
  });

  it('keeps the pools a share type fits from 2.23; an unknown type is a 400', async () => {
    const created = await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'big',
        extra_specs: { driver_handles_share_servers: 'false', total_capacity_gb: '>= 1500' },
      },
    });
    expect(created.status).toBe(200);
    expect(await names('?share_type=big')).toEqual([
      'sim@a1#slow',
      'sim@a2#slow',
      'sim@b1#slow',
      'sim@b2#slow',
    ]);
    expect(await names('?share_type=big', '2.22')).toEqual([]);
    const unknown = await hawser.request('GET', '/v2/scheduler-stats/pools?share_type=nope');
    expect(unknown.status).toBe(400);
  });

  it('is admin-only', async () => {
    for (const route of ['/v2/scheduler-stats/pools', '/v2/scheduler-stats/pools/detail']) {
      const res = await hawser.request('GET', route, undefined, { token: MEMBER });
      expect(res.status).toBe(403);
      expect(res.body.forbidden.message).toMatch(/scheduler_stats:pools/);
    }
  });
});

/**
 * Long enough that a loaded machine still reads every service up between its one report and
 * the down time (with 1 s a slow start could miss it), short enough to wait out.
 */
const DOWN_TIME_S = 5;

describe('services over HTTP (given back ends that report less often than the down time)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser({
      env: { HAWSER_SERVICE_DOWN_TIME_S: String(DOWN_TIME_S), HAWSER_REPORT_INTERVAL_S: '60' },
    });
  });
  afterAll(() => hawser.close());

  const services = async () => (await hawser.request('GET', '/v2/services')).body.services;

  it('shows each back end up after its report, then down after the service-down time', async () => {
    const up = await eventually(async () => {
      const rows = await services();
      return rows.filter((r: { state: string }) => r.state === 'up').length === 5
        ? rows
        : undefined;
    });
    expect(up).toContainEqual(
      expect.objectContaining({ binary: 'manila-scheduler', status: 'enabled', state: 'up' }),
    );
    const share = up.find((r: { host: string }) => r.host === 'sim@a1');
    expect(share).toMatchObject({
      binary: 'manila-share',
      host: 'sim@a1',
      zone: 'az-1',
      status: 'enabled',
      state: 'up',
    });
    expect(Date.parse(share.updated_at)).toBeGreaterThan(Date.now() - 2 * DOWN_TIME_S * 1_000);

    const down = await eventually(
      async () => {
        const rows = await services();
        return rows.filter((r: { state: string }) => r.state === 'down').length === 4
          ? rows
          : undefined;
      },
      3 * DOWN_TIME_S * 1_000,
      'the back ends to be down',
    );
    expect(down.find((r: { host: string }) => r.host === 'sim@a1').updated_at).toBe(
      share.updated_at,
    );
    const filtered = await hawser.request('GET', '/v2/services?binary=manila-share&zone=az-2');
    expect(filtered.body.services.map((r: { host: string }) => r.host).sort()).toEqual([
      'sim@a2',
      'sim@b2',
    ]);
    expect((await hawser.request('GET', '/v2/services', undefined, { token: MEMBER })).status).toBe(
      403,
    );
    expect(
      (await hawser.request('GET', '/v2/os-services', undefined, { version: '2.6' })).status,
    ).toBe(200);
  });
});
