import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';

describe('snapshot instances over HTTP (2.19+, admin only)', () => {
  let hawser: HawserTestServer;
  let snapshotId: string;
  const admin = (method: string, route: string, body?: unknown, version = '2.19') =>
    hawser.request(method, route, body, { version });

  beforeAll(async () => {
    hawser = await startHawser();
    await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'snappy',
        extra_specs: { driver_handles_share_servers: 'false', snapshot_support: 'true' },
      },
    });
    const share = await hawser.request('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'snappy' },
    });
    const shareId = share.body.share.id as string;
    await eventually(async () =>
      (await admin('GET', `/v2/shares/${shareId}`)).body.share.status === 'available'
        ? true
        : undefined,
    );
    const snapshot = await admin('POST', '/v2/snapshots', { snapshot: { share_id: shareId } });
    snapshotId = snapshot.body.snapshot.id as string;
    await eventually(async () =>
      (await admin('GET', `/v2/snapshots/${snapshotId}`)).body.snapshot.status === 'available'
        ? true
        : undefined,
    );
  });
  afterAll(() => hawser.close());

  it('lists, details (filtered by snapshot_id), shows and resets one instance; 404 before 2.19, 403 for a member', async () => {
    const list = await admin('GET', '/v2/snapshot-instances');
    expect(list.status).toBe(200);
    expect(list.body.snapshot_instances).toEqual([
      { id: expect.any(String), snapshot_id: snapshotId, status: 'available' },
    ]);
    const id = list.body.snapshot_instances[0].id as string;

    const detail = await admin('GET', `/v2/snapshot-instances/detail?snapshot_id=${snapshotId}`);
    expect(detail.body.snapshot_instances).toEqual([
      expect.objectContaining({ id, snapshot_id: snapshotId, progress: '100%' }),
    ]);
    const none = await admin('GET', '/v2/snapshot-instances/detail?snapshot_id=nope');
    expect(none.body.snapshot_instances).toEqual([]);

    const shown = await admin('GET', `/v2/snapshot-instances/${id}`);
    expect(shown.body.snapshot_instance).toMatchObject({
      id,
      snapshot_id: snapshotId,
      provider_location: expect.stringMatching(/^simulated:/),
    });
    expect((await admin('GET', '/v2/snapshot-instances/nope')).status).toBe(404);
    const locations = await admin(
      'GET',
      `/v2/snapshot-instances/${id}/export-locations`,
      undefined,
      '2.32',
    );
    expect(locations.body).toEqual({ share_snapshot_export_locations: [] });

    expect((await admin('GET', '/v2/snapshot-instances', undefined, '2.18')).status).toBe(404);
    const member = await hawser.request('GET', '/v2/snapshot-instances', undefined, {
      token: MEMBER,
      version: '2.19',
    });
    expect(member.status).toBe(403);

    const bad = await admin('POST', `/v2/snapshot-instances/${id}/action`, {
      reset_status: { status: 'bogus' },
    });
    expect(bad.status).toBe(400);
    const reset = await admin('POST', `/v2/snapshot-instances/${id}/action`, {
      reset_status: { status: 'error' },
    });
    expect(reset.status).toBe(202);
    expect((await admin('GET', `/v2/snapshot-instances/${id}`)).body.snapshot_instance.status).toBe(
      'error',
    );
    expect((await admin('GET', `/v2/snapshots/${snapshotId}`)).body.snapshot.status).toBe('error');
  });
});
