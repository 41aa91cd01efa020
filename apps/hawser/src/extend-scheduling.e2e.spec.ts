import type { SimulatedBackendConfig } from '#hawser/drivers';
import {
  ADMIN_TOKEN,
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const PROJECT = '77777777777777777777777777777777';
const MEMBER = `erin:${PROJECT}:member,reader`;
const TIGHT = 'tight@sim#p1';
const ROOMY = 'roomy@sim#p1';

/** A 10 GiB pool in az-1 and a 100 GiB pool in az-2, each alone in its zone. */
const backends = (): SimulatedBackendConfig[] =>
  [
    ['tight@sim', 'az-1', 10],
    ['roomy@sim', 'az-2', 100],
  ].map(([name, zone, totalCapacityGb]) => ({
    name: name as string,
    driver: 'simulated' as const,
    availabilityZone: zone as string,
    pools: [{ name: 'p1', totalCapacityGb: totalCapacityGb as number }],
  }));

/**
 * A non-forced extend goes through the scheduler's capacity check on the share's own pool
 * (reference 3.4, 6.9): CapacityFilter at the share's current size, then DriverFilter.
 */
describe('extend through the scheduler (given a 10 GiB and a 100 GiB pool)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser({ backends });
    const type = await hawser.request('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
  });
  afterAll(() => hawser.close());

  const share = async (id: string) =>
    (await hawser.request('GET', `/v2/shares/${id}`, undefined, { token: MEMBER })).body.share;
  /** The pool a share is on (an admin-only field). */
  const hostOf = async (id: string) =>
    (await hawser.request('GET', `/v2/shares/${id}`)).body.share.host as string;
  const settled = (id: string, status: string, size: number) =>
    eventually(
      async () => {
        const shown = await share(id);
        return shown.status === status && shown.size === size ? shown : undefined;
      },
      30_000,
      `share ${id} ${status} at ${size} GiB`,
    );
  const create = async (zone: string, size: number): Promise<string> => {
    const created = await hawser.request(
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size, share_type: 'default', availability_zone: zone } },
      { token: MEMBER },
    );
    expect(created.status).toBe(200);
    const id = created.body.share.id as string;
    await settled(id, 'available', size);
    return id;
  };
  const extend = (id: string, body: Record<string, unknown>, token = MEMBER, version = '2.72') =>
    hawser.request('POST', `/v2/shares/${id}/action`, { extend: body }, { token, version });
  const gigabytesInUse = async (): Promise<number> =>
    (await hawser.request('GET', `/v2/quota-sets/${PROJECT}/detail`)).body.quota_set.gigabytes
      .in_use;

  it('refuses an extend the pool has no room for: available again, old size, message 008/009, quota back', async () => {
    const first = await create('az-1', 4);
    await create('az-1', 4);
    expect(await hostOf(first)).toBe(TIGHT);
    expect(await gigabytesInUse()).toBe(8);

    // 2 GiB left: the current 4 GiB no longer fits (the filters see the current size).
    const extended = await extend(first, { new_size: 5 });
    expect(extended.status).toBe(202);
    await eventually(
      async () => {
        const listed = await hawser.request('GET', `/v2/messages?resource_id=${first}`, undefined, {
          token: MEMBER,
        });
        return listed.body.messages?.length === 1 ? true : undefined;
      },
      30_000,
      'the refused extend to be reported',
    );
    await settled(first, 'available', 4);
    expect(await hostOf(first)).toBe(TIGHT);
    const listed = await hawser.request('GET', `/v2/messages?resource_id=${first}`, undefined, {
      token: MEMBER,
    });
    expect(listed.body.messages[0]).toMatchObject({
      action_id: '008',
      detail_id: '009',
      message_level: 'ERROR',
      resource_type: 'SHARE',
      resource_id: first,
      user_message:
        "extend: No storage could be allocated for this share request, Capacity filter didn't succeed.",
    });
    await eventually(
      async () => ((await gigabytesInUse()) === 8 ? true : undefined),
      30_000,
      'the refused extend to be given back',
    );

    // An admin's force (2.64) skips the check: the node extends on the same pool.
    const forced = await extend(first, { new_size: 5, force: true }, ADMIN_TOKEN, '2.64');
    expect(forced.status).toBe(202);
    await settled(first, 'available', 5);
    expect(await gigabytesInUse()).toBe(9);
  });

  it('extends a share whose pool has room', async () => {
    const id = await create('az-2', 4);
    expect(await hostOf(id)).toBe(ROOMY);
    const extended = await extend(id, { new_size: 40 });
    expect(extended.status).toBe(202);
    await settled(id, 'available', 40);
    const messages = await hawser.request('GET', `/v2/messages?resource_id=${id}`, undefined, {
      token: MEMBER,
    });
    expect(messages.body.messages).toEqual([]);
  });

  it("refuses a member's force at 2.64 with 403, changing nothing", async () => {
    const id = await create('az-2', 2);
    const refused = await extend(id, { new_size: 3, force: true }, MEMBER, '2.64');
    expect(refused.status).toBe(403);
    expect((await share(id)).size).toBe(2);
  });

  it('reads the size and the force as Manila does, and refuses them in its words', async () => {
    const id = await create('az-2', 2);
    const refusal = async (body: Record<string, unknown>, version = '2.72') => {
      const answer = await extend(id, body, ADMIN_TOKEN, version);
      return [answer.status, answer.body.badRequest?.message];
    };
    // The force is read from 2.64 only, null included; before, Manila drops it unread.
    expect(await refusal({ new_size: 3, force: null })).toEqual([
      400,
      'Invalid boolean force : None',
    ]);
    expect(await refusal({ new_size: 3, force: 'maybe' })).toEqual([
      400,
      'Invalid boolean force : maybe',
    ]);
    expect(await refusal({ new_size: 'three' })).toEqual([
      400,
      'New share size must be specified as an integer.',
    ]);
    // int() of 2.9 is 2, the share's size.
    expect(await refusal({ new_size: 2.9 })).toEqual([
      400,
      'Invalid input received: New size for extend must be greater than current size. (current: 2, extended: 2).',
    ]);
    expect((await share(id)).size).toBe(2);
    expect((await extend(id, { new_size: ' 3 ', force: 'maybe' }, MEMBER, '2.63')).status).toBe(
      202,
    );
    await settled(id, 'available', 3);

    const reset = await hawser.request('POST', `/v2/shares/${id}/action`, {
      reset_status: { status: 'error' },
    });
    expect(reset.status).toBe(202);
    expect(await refusal({ new_size: 4 })).toEqual([
      400,
      `Invalid share: Share ${id} status must be 'available' to extend, but current status is: error.`,
    ]);
    const shrink = await hawser.request('POST', `/v2/shares/${id}/action`, {
      shrink: { new_size: 1 },
    });
    expect([shrink.status, shrink.body.badRequest?.message]).toEqual([
      400,
      `Invalid share: Share ${id} status must in (available, shrinking_possible_data_loss_error) to shrink, but current status is: error.`,
    ]);
  });
});
