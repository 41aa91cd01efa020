import { createDefaultType } from './test-support/default-share-type.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
const BACKENDS = ['sim@a1', 'sim@b1', 'sim@a2', 'sim@b2'];

describe('services enable and disable over HTTP (given four simulated back ends)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser();
    await createDefaultType(hawser);
  });
  afterAll(() => hawser.close());

  const setStatus = (action: string, host: string, version = '2.7', path = 'services') =>
    hawser.request('PUT', `/v2/${path}/${action}`, { host, binary: 'manila-share' }, { version });
  const statuses = async () =>
    Object.fromEntries(
      (await hawser.request('GET', '/v2/services?binary=manila-share')).body.services.map(
        (s: { host: string; status: string }) => [s.host, s.status],
      ),
    ) as Record<string, string>;
  const settledShare = async () => {
    const created = await hawser.request('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default' },
    });
    expect(created.status).toBe(200);
    const id = created.body.share.id as string;
    return eventually(
      async () => {
        const share = (await hawser.request('GET', `/v2/shares/${id}`)).body.share;
        return ['available', 'error'].includes(share.status) ? share : undefined;
      },
      10_000,
      'the share to settle',
    );
  };

  it('disables a back end (200, Manila summary), lists it disabled, and places new shares elsewhere', async () => {
    const disabled = await setStatus('disable', 'sim@a1');
    expect(disabled.status).toBe(200);
    expect(disabled.body).toEqual({ host: 'sim@a1', binary: 'manila-share', disabled: true });
    expect(await statuses()).toMatchObject({ 'sim@a1': 'disabled', 'sim@b1': 'enabled' });
    const filtered = await hawser.request('GET', '/v2/services?status=disabled');
    expect(filtered.body.services.map((s: { host: string }) => s.host)).toEqual(['sim@a1']);

    for (let i = 0; i < 4; i += 1) {
      const share = await settledShare();
      expect(share.status).toBe('available');
      expect(share.host.startsWith('sim@a1#')).toBe(false);
    }
    expect((await setStatus('enable', 'sim@a1')).body).toEqual({
      host: 'sim@a1',
      binary: 'manila-share',
      disabled: false,
    });
    expect((await statuses())['sim@a1']).toBe('enabled');
  });

  it('fails a share when every back end is disabled (no valid host), and places it again once one is enabled', async () => {
    for (const backend of BACKENDS) expect((await setStatus('disable', backend)).status).toBe(200);
    const refused = await settledShare();
    expect(refused.status).toBe('error');

    // The legacy route (up to 2.6) does the same.
    expect((await setStatus('enable', 'sim@b2', '2.6', 'os-services')).status).toBe(200);
    // An enabled back end's pools come back with its next report.
    const placed = await eventually(
      async () => {
        const share = await settledShare();
        return share.status === 'available' ? share : undefined;
      },
      30_000,
      'a share placed on the enabled back end',
      500,
    );
    expect(placed.host.startsWith('sim@b2#')).toBe(true);
    for (const backend of BACKENDS) await setStatus('enable', backend);
  });

  it('refuses bad input with Manila-style errors and changes nothing', async () => {
    const before = await statuses();
    const cases = [
      [await hawser.request('PUT', '/v2/services/disable', { host: 'sim@a1' }), 400],
      [await hawser.request('PUT', '/v2/services/disable', 'host'), 400],
      [
        await hawser.request('PUT', '/v2/services/pause', {
          host: 'sim@a1',
          binary: 'manila-share',
        }),
        404,
      ],
      [await setStatus('disable', 'nowhere@none'), 404],
      [
        await hawser.request('PUT', '/v2/services/disable', {
          host: 'sim@a1',
          binary: 'manila-scheduler',
        }),
        404,
      ],
      [
        await hawser.request(
          'PUT',
          '/v2/services/disable',
          { host: 'sim@a1', binary: 'manila-share' },
          { token: MEMBER },
        ),
        403,
      ],
      [await setStatus('disable', 'sim@a1', '2.6'), 404],
      [await setStatus('disable', 'sim@a1', '2.7', 'os-services'), 404],
      [
        await hawser.request('PUT', '/v2/services/disable', {
          host: 'sim@a1',
          binary: 'manila-share',
          disabled_reason: 'x'.repeat(256),
        }),
        400,
      ],
    ] as const;
    expect(cases.map(([response]) => response.status)).toEqual(cases.map(([, status]) => status));
    expect(cases[3]![0].body.itemNotFound.message).toBe(
      'HostBinaryNotFound: Could not find binary manila-share on host nowhere@none.',
    );
    expect(await statuses()).toEqual(before);
  });
});
