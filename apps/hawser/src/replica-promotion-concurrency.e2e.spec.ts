import { simulatedBackends } from './test-support/simulated-backends.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

const PROMOTIONS = 24;

/*
 * Many promote requests for one share at once, spread over its two secondary replicas: the
 * share's stream takes one promotion, every other request is refused, and the replicas end
 * with exactly one active.
 */
describe('simultaneous promotions of one share', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    // Slow promotions keep the first one in replication_change while the others arrive.
    hawser = await startHawser({
      backends: () => simulatedBackends({ operationLatencyMs: { promoteReplica: 3000 } }),
    });
    const created = await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'readable',
        extra_specs: { driver_handles_share_servers: 'false', replication_type: 'readable' },
      },
    });
    expect(created.status).toBe(200);
  });
  afterAll(() => hawser.close());

  const replicas = async (shareId: string) =>
    (await hawser.request('GET', `/v2/share-replicas/detail?share_id=${shareId}`)).body
      .share_replicas as { id: string; status: string; replica_state: string }[];
  const settled = (shareId: string, count: number) =>
    eventually(
      async () => {
        const list = await replicas(shareId);
        return list.length === count &&
          list.every((r) => r.status === 'available' && r.replica_state !== 'out_of_sync')
          ? list
          : undefined;
      },
      15_000,
      'the replicas to settle',
    );

  it(`given a share with two in_sync replicas, when ${PROMOTIONS} promotions arrive at once, then one wins and the rest are refused`, async () => {
    const share = await hawser.request('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'readable', availability_zone: 'az-1' },
    });
    const shareId = share.body.share.id as string;
    await settled(shareId, 1);
    for (const zone of ['az-2', 'az-2']) {
      const added = await hawser.request('POST', '/v2/share-replicas', {
        share_replica: { share_id: shareId, availability_zone: zone },
      });
      expect(added.status).toBe(202);
    }
    const before = await settled(shareId, 3);
    const secondaries = before.filter((r) => r.replica_state === 'in_sync').map((r) => r.id);
    expect(secondaries).toHaveLength(2);

    const answers = await Promise.all(
      Array.from({ length: PROMOTIONS }, (_, i) =>
        hawser.request('POST', `/v2/share-replicas/${secondaries[i % 2]}/action`, {
          promote: null,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 202).every((s) => s === 400)).toBe(true);
    const winner = secondaries[statuses.indexOf(202) % 2];
    expect(answers.find((a) => a.status === 202)?.body.share_replica).toMatchObject({
      id: winner,
      status: 'replication_change',
    });

    const after = await settled(shareId, 3);
    expect(after.filter((r) => r.replica_state === 'active').map((r) => r.id)).toEqual([winner]);
    expect(after.filter((r) => r.replica_state === 'in_sync')).toHaveLength(2);

    // The log holds one promotion, requested and completed once.
    const history = (await hawser.request('GET', `/hawser/v1/streams/share-${shareId}?limit=1000`))
      .body.events as { type: string }[];
    const count = (type: string) => history.filter((e) => e.type === type).length;
    expect(count('ReplicaPromotionRequested')).toBe(1);
    expect(count('ReplicaPromoted')).toBe(1);
    expect((await hawser.request('GET', `/v2/shares/${shareId}`)).body.share.status).toBe(
      'available',
    );
  }, 60_000);
});
