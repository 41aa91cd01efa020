import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const PROJECT = '66666666666666666666666666666666';
const MEMBER = `dave:${PROJECT}:member,reader`;
const OTHER = 'erin:77777777777777777777777777777777:member,reader';

describe('user messages over HTTP (given a share no pool can hold)', () => {
  let hawser: HawserTestServer;
  let shareId: string;
  let requestId: string;

  beforeAll(async () => {
    hawser = await startHawser();
    await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    await hawser.request('PUT', `/v2/quota-sets/${PROJECT}`, { quota_set: { gigabytes: -1 } });
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 5000, share_type: 'default' } },
      { token: MEMBER },
    );
    expect(created.status).toBe(200);
    shareId = created.body.share.id;
    requestId = created.headers.get('x-openstack-request-id') as string;
  });
  afterAll(() => hawser.close());

  const messagesOf = (token: string, query = '', version?: string) =>
    hawser.request('GET', `/v2/messages${query}`, undefined, { token, version });

  it('records Manila fields for the no-valid-host failure', async () => {
    const [message] = await eventually(async () => {
      const listed = await messagesOf(MEMBER, `?resource_id=${shareId}`);
      return listed.body.messages?.length === 1 ? listed.body.messages : undefined;
    });
    expect(message).toMatchObject({
      project_id: PROJECT,
      action_id: '001',
      detail_id: '009',
      message_level: 'ERROR',
      request_id: requestId,
      resource_type: 'SHARE',
      resource_id: shareId,
      user_message:
        "allocate host: No storage could be allocated for this share request, Capacity filter didn't succeed.",
    });
    expect(Date.parse(message.expires_at) - Date.parse(message.created_at)).toBe(2_592_000_000);
    expect(message.links[0].href).toMatch(new RegExp(`/v2/messages/${message.id}$`));
    const shown = await hawser.request('GET', `/v2/messages/${message.id}`, undefined, {
      token: MEMBER,
    });
    expect(shown.body.message).toEqual(message);
    const share = await hawser.request('GET', `/v2/shares/${shareId}`, undefined, {
      token: MEMBER,
    });
    expect(share.body.share.status).toBe('error');
  });

  it('filters, scopes to the project and gates by microversion', async () => {
    expect((await messagesOf(MEMBER, '?action_id=002')).body.messages).toEqual([]);
    expect((await messagesOf(MEMBER, '?detail_id=009')).body.messages).toHaveLength(1);
    expect((await messagesOf(OTHER)).body.messages).toEqual([]);
    expect((await messagesOf('admin:88888888888888888888888888888888')).body.messages).toHaveLength(
      1,
    );
    expect((await messagesOf(MEMBER, '', '2.36')).status).toBe(404);
    expect(
      (await messagesOf(MEMBER, '?created_since=2000-01-01T00:00:00Z')).body.messages,
    ).toHaveLength(1);
    expect(
      (await messagesOf(MEMBER, '?created_before=2000-01-01T00:00:00Z')).body.messages,
    ).toEqual([]);
    expect((await messagesOf(MEMBER, '?created_since=yesterday')).status).toBe(400);
    // Times as Manila's parse_isotime takes them: a date that exists, fields in range.
    for (const since of ['2000-01-01', '2000-01-01T01:00+01:00', '2000-01-01T00:00:00.5-00:30']) {
      const found = await messagesOf(MEMBER, `?created_since=${encodeURIComponent(since)}`);
      expect([since, found.status, found.body.messages?.length]).toEqual([since, 200, 1]);
    }
    const future = await messagesOf(
      MEMBER,
      `?created_since=${encodeURIComponent('2999-12-31T23:59:59Z')}`,
    );
    expect(future.body.messages).toEqual([]);
    for (const since of [
      '2020-02-30',
      '99999-01-01',
      '1',
      '2020-01-01T24:00',
      '2020-01-01T00:00+25:00',
    ]) {
      const refused = await messagesOf(MEMBER, `?created_since=${encodeURIComponent(since)}`);
      expect([since, refused.status, refused.body.badRequest?.message]).toEqual([
        since,
        400,
        'Invalid value specified for the query key: created_since',
      ]);
    }
  });

  it('deletes a message with 204, as an audited event', async () => {
    const [message] = (await messagesOf(MEMBER)).body.messages;
    const other = await hawser.request('DELETE', `/v2/messages/${message.id}`, undefined, {
      token: OTHER,
    });
    expect(other.status).toBe(404);
    const removed = await hawser.request('DELETE', `/v2/messages/${message.id}`, undefined, {
      token: MEMBER,
    });
    expect(removed.status).toBe(204);
    const gone = await hawser.request('GET', `/v2/messages/${message.id}`, undefined, {
      token: MEMBER,
    });
    expect(gone.status).toBe(404);
    // Manila's words for an unknown message (compared with the reference Manila).
    expect(gone.body.itemNotFound.message).toBe(`Message ${message.id} could not be found.`);
    const audit = await hawser.request('GET', `/hawser/v1/streams/message-${message.id}`);
    expect(audit.body.events).toMatchObject([
      { type: 'UserMessageDeleted', user_id: 'dave', project_id: PROJECT },
    ]);
  });
});
