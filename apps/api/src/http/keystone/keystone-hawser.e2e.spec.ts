import {
  startHawser,
  type HawserTestServer,
} from '../../../../hawser/src/test-support/hawser-test-server.js';
import {
  describeWithKeystone,
  hawserKeystoneEnv,
  issueToken,
  keystoneUrl,
  type IssuedToken,
} from './test-support/keystone-test-users.js';

describeWithKeystone('Hawser with HAWSER_AUTH=keystone (given a real Keystone)', () => {
  let hawser: HawserTestServer;
  let admin: IssuedToken;
  let member: IssuedToken;
  let reader: IssuedToken;

  beforeAll(async () => {
    hawser = await startHawser({ env: hawserKeystoneEnv(keystoneUrl as string) });
    [admin, member, reader] = await Promise.all([
      issueToken('ADMIN'),
      issueToken('MEMBER'),
      issueToken('READER'),
    ]);
    const created = await hawser.request(
      'POST',
      '/v2/types',
      { share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } } },
      { token: admin.token },
    );
    expect(created.status).toBe(200);
  });
  afterAll(() => hawser?.close());

  it("records a member's share under the user and project Keystone names", async () => {
    const created = await hawser.request(
      'POST',
      `/v2/${member.projectId}/shares`,
      { share: { share_proto: 'NFS', size: 1, name: 'from-keystone', share_type: 'default' } },
      { token: member.token },
    );

    expect(created.status).toBe(200);
    expect(created.body.share).toMatchObject({
      project_id: member.projectId,
      user_id: member.userId,
    });
    const listed = await hawser.request('GET', '/v2/shares', undefined, { token: reader.token });
    expect(listed.status).toBe(200);
    expect(listed.body.shares.map((s: { id: string }) => s.id)).toContain(created.body.share.id);
  });

  it('lets a user with only the reader role read but not create a share (403), as secure RBAC says', async () => {
    const refused = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, name: 'by-a-reader', share_type: 'default' } },
      { token: reader.token },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.forbidden.message).toBe(
      "Policy doesn't allow share:create to be performed.",
    );

    const listed = await hawser.request('GET', '/v2/shares', undefined, { token: reader.token });
    expect(listed.status).toBe(200);
    expect(listed.body.shares.map((s: { name: string }) => s.name)).not.toContain('by-a-reader');
  });

  it('refuses an admin-only action to a member (403)', async () => {
    const created = await hawser.request(
      'POST',
      '/v2/types',
      {
        share_type: { name: 'not-allowed', extra_specs: { driver_handles_share_servers: 'false' } },
      },
      { token: member.token },
    );

    expect(created.status).toBe(403);
  });

  it("refuses another project's URL (400) and bad or missing tokens (401)", async () => {
    const otherProject = await hawser.request('GET', `/v2/${admin.projectId}/shares`, undefined, {
      token: member.token,
    });
    const garbage = await hawser.request('GET', '/v2/shares', undefined, { token: 'garbage' });
    const none = await hawser.request('GET', '/v2/shares', undefined, { token: '' });

    expect(otherProject.status).toBe(400);
    expect(garbage.status).toBe(401);
    expect(garbage.body).toEqual({
      unauthorized: { code: 401, message: 'Authentication required' },
    });
    expect(none.status).toBe(401);
  });
});
