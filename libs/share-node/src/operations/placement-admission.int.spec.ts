import {
  derivedId,
  shareStream,
  type ReplicaScheduled,
  type ShareEvent,
  type ShareScheduled,
} from '#hawser/domain';
import { SimulatedShareDriver } from '#hawser/drivers';
import type { SqliteEventStore } from '#hawser/eventstore';
import { PlacementAdmission } from './placement-admission.js';
import { shareRequested } from '../../../domain/src/share/test-support/share-history.js';
import {
  openSqliteLog,
  type SqliteLog,
} from '../../../process-managers/src/test-support/sqlite-log.js';

const at = '2026-11-22T10:00:00.000Z';
const HOME = 'n@b#home';
const P1 = 'n@b#p1';
const P2 = 'n@b#p2';
const readable = { replication_type: 'readable' };

const requested = (shareId: string, specs: Record<string, string>): ShareEvent =>
  shareRequested(specs, { shareId, instanceId: `${shareId}-i`, size: 60, createdAt: at });
const shareScheduled = (shareId: string, host: string): ShareScheduled => ({
  type: 'ShareScheduled',
  data: { instanceId: `${shareId}-i`, host, availabilityZone: 'az-1', size: 60, scheduledAt: at },
});
/** Replicated share s1, available on the home pool, with replica r1 requested. */
const replicatedShare: ShareEvent[] = [
  requested('s1', readable),
  shareScheduled('s1', HOME),
  {
    type: 'ShareDriverOperationStarted',
    data: {
      instanceId: 's1-i',
      operation: 'create_share',
      commandId: 'c1',
      host: HOME,
      startedAt: at,
    },
  },
  {
    type: 'ShareCreated',
    data: { instanceId: 's1-i', commandId: 'c1', exportLocations: [], createdAt: at },
  },
  {
    type: 'ReplicaRequested',
    data: {
      replicaId: 'r1',
      availabilityZone: null,
      snapshotInstances: [],
      quotaHolderId: 'r1',
      requestedAt: at,
    },
  },
];
const replicaScheduled = (host: string): ReplicaScheduled => ({
  type: 'ReplicaScheduled',
  data: { replicaId: 'r1', host, availabilityZone: 'az-1', size: 60, scheduledAt: at },
});

/** The node's placement check against a real SQLite log and the simulated driver's report. */
describe('the node admits replicas against the same ledger as shares', () => {
  let log: SqliteLog;
  let events: SqliteEventStore;
  let driver: SimulatedShareDriver;
  let admission: PlacementAdmission;
  let counter = 0;

  const append = async (shareId: string, stream: readonly ShareEvent[]) => {
    for (const event of stream) {
      counter += 1;
      await events.append(
        shareStream(shareId),
        [{ id: derivedId('admission-spec', counter), type: event.type, data: event.data }],
        { expectedRevision: 'any' },
      );
    }
  };
  const typesOf = async (shareId: string) =>
    (await events.readStream(shareStream(shareId))).map((e) => e.type);

  beforeEach(async () => {
    log = openSqliteLog('hawser-admission-');
    events = log.events;
    driver = new SimulatedShareDriver({
      name: 'n@b',
      driver: 'simulated',
      availabilityZone: 'az-1',
      replicationDomain: 'rd',
      pools: [
        { name: 'home', totalCapacityGb: 1000 },
        { name: 'p1', totalCapacityGb: 100 },
        { name: 'p2', totalCapacityGb: 100 },
      ],
      options: { thinProvisioning: false },
    });
    await driver.initialize();
    admission = new PlacementAdmission(log.commands, () => Date.parse(at));
    admission.observe(await driver.getPoolStats({ commandId: 'stats' }), Date.parse(at));
    await append('s1', replicatedShare);
  });
  afterEach(async () => {
    await driver.close();
    await log.close();
  });

  it('hands back a replica that a share accepted on its pool leaves no room for', async () => {
    await append('s2', [requested('s2', {}), shareScheduled('s2', P1)]);
    await append('s1', [replicaScheduled(P1)]);

    expect(await admission.admit('s2', shareScheduled('s2', P1).data, 'e-s2')).toBe(true);
    expect(await admission.admitReplica('s1', replicaScheduled(P1).data, 'e-r1')).toBe(false);

    const [rejected] = (await events.readStream(shareStream('s1'))).slice(-1);
    expect(rejected).toMatchObject({
      type: 'ReplicaPlacementRejected',
      data: {
        replicaId: 'r1',
        host: P1,
        message:
          'Pool p1 cannot hold 60 GiB: 40 GiB free (60 GiB placed here and not yet reported, 0% reserved).',
        attemptedHosts: [P1],
        rejectedAt: at,
      },
    });
  });

  it('counts an accepted replica against a share placed after it on the same pool', async () => {
    await append('s1', [replicaScheduled(P2)]);
    await append('s2', [requested('s2', {}), shareScheduled('s2', P2)]);

    expect(await admission.admitReplica('s1', replicaScheduled(P2).data, 'e-r1')).toBe(true);
    expect(await admission.admit('s2', shareScheduled('s2', P2).data, 'e-s2')).toBe(false);
    expect((await typesOf('s2')).at(-1)).toBe('SharePlacementRejected');

    // The replica's creation failed and a report measured after it drops its reservation (the
    // report shows the pool empty: nothing was built), so another 60 GiB share fits.
    admission.settle('r1');
    admission.observe(await driver.getPoolStats({ commandId: 'stats-2' }), Date.parse(at) + 1);
    await append('s3', [requested('s3', {}), shareScheduled('s3', P2)]);
    expect(await admission.admit('s3', shareScheduled('s3', P2).data, 'e-s3')).toBe(true);
  });

  it('creates nothing for a replica placement superseded since, nor reserves for a claimed one', async () => {
    await append('s1', [
      replicaScheduled(P1),
      {
        type: 'ReplicaPlacementRejected',
        data: {
          replicaId: 'r1',
          host: P1,
          message: 'no room',
          attemptedHosts: [P1],
          rejectedAt: at,
        },
      },
      replicaScheduled(P2),
    ]);
    const before = await typesOf('s1');
    // A late replay of the first placement: the replica is on P2 now.
    expect(await admission.admitReplica('s1', replicaScheduled(P1).data, 'e-old')).toBe(false);
    expect(await typesOf('s1')).toEqual(before);

    await append('s1', [
      {
        type: 'ShareDriverOperationStarted',
        data: {
          instanceId: 'r1',
          operation: 'create_replica',
          commandId: 'c2',
          host: P2,
          startedAt: at,
        },
      },
    ]);
    // Claimed already: the node goes on (the claim decides nothing) without reserving again,
    // so a 60 GiB share still fits on P2.
    expect(await admission.admitReplica('s1', replicaScheduled(P2).data, 'e-new')).toBe(true);
    await append('s2', [requested('s2', {}), shareScheduled('s2', P2)]);
    expect(await admission.admit('s2', shareScheduled('s2', P2).data, 'e-s2')).toBe(true);
  });
});
