import { randomUUID } from 'node:crypto';
import { capabilitiesOf, type SnapshotSource } from '#hawser/domain';
import { SimulatedShareDriver, type SimulatedBackendConfig } from '#hawser/drivers';
import type { PlacementRequest } from '#hawser/process-managers';
import { FilterScheduler, NO_AFFINITY, PoolStateRegistry } from '#hawser/scheduler';
import { FilterSchedulerPlacement, SCHEDULER_FILTERS } from './filter-scheduler.placement.js';

/**
 * Placing shares created from a snapshot with use_scheduler_creating_share_from_snapshot on,
 * through the scheduler's own placement port, over pool reports of real (simulated, thick)
 * back ends: `alpha` (two pools) and `bravo` in az-1 and `charlie` in az-2 share the replication
 * domain `blue`; `red` in az-1 is the largest and alone in its domain. The snapshot lives on
 * alpha#p1 (reference 4.3, 4.4, 6.8).
 */
const BACKENDS: readonly SimulatedBackendConfig[] = [
  backend('node-az1@alpha', 'az-1', 'blue', ['p1', 'p2']),
  backend('node-az1@bravo', 'az-1', 'blue', ['p1']),
  backend('node-az2@charlie', 'az-2', 'blue', ['p1']),
  backend('node-az1@red', 'az-1', 'red', ['p1'], 5000),
];
const SOURCE_HOST = 'node-az1@alpha#p1';
const SPECS = {
  driver_handles_share_servers: 'False',
  snapshot_support: 'True',
  create_share_from_snapshot_support: 'True',
};

function backend(
  name: string,
  zone: string,
  domain: string,
  pools: readonly string[],
  totalCapacityGb = 1000,
): SimulatedBackendConfig {
  return {
    name,
    driver: 'simulated',
    availabilityZone: zone,
    replicationDomain: domain,
    pools: pools.map((pool) => ({ name: pool, totalCapacityGb })),
  };
}

/** The back ends with `usedGiB` already allocated per pool, reported to a fresh scheduler. */
const schedulerWith = async (usedGiB: Readonly<Record<string, number>>) => {
  const registry = new PoolStateRegistry({ serviceDownTimeMs: 60_000 });
  for (const config of BACKENDS) {
    const driver = new SimulatedShareDriver(config);
    await driver.initialize();
    for (const pool of config.pools) {
      const host = `${config.name}#${pool.name}`;
      const used = usedGiB[host];
      if (!used) continue;
      const share = { shareId: randomUUID(), instanceId: randomUUID(), sizeGiB: used, host };
      await driver.createShare({ commandId: randomUUID(), share: { ...share, protocol: 'NFS' } });
    }
    const report = await driver.getPoolStats({ commandId: randomUUID() });
    registry.report(
      report.backend,
      report.pools.map((p) => p.capabilities),
      Date.now(),
      report.availabilityZone,
    );
    await driver.close();
  }
  const scheduler = new FilterScheduler(registry, { filters: SCHEDULER_FILTERS });
  return new FilterSchedulerPlacement(registry, scheduler);
};

const source = (placement: SnapshotSource['placement'] = 'scheduler'): SnapshotSource => ({
  snapshotId: 'snap-1',
  snapshotInstanceId: 'snap-1-i',
  shareId: 'source-share',
  shareInstanceId: 'source-instance',
  host: SOURCE_HOST,
  availabilityZone: 'az-1',
  size: 10,
  placement,
});

/** A clone as the API requests it: the zone asked for, else the source's. */
const clone = (
  zone = 'az-1',
  snapshotSource: SnapshotSource | null = source(),
): PlacementRequest => ({
  shareId: 'clone',
  instanceId: randomUUID(),
  projectId: 'p1',
  userId: 'u1',
  name: null,
  description: null,
  size: 10,
  shareProto: 'NFS',
  shareType: { id: 't1', name: 'clonable', extraSpecs: SPECS },
  capabilities: capabilitiesOf(SPECS),
  availabilityZone: zone,
  metadata: {},
  isPublic: false,
  snapshotId: snapshotSource?.snapshotId ?? null,
  ...(snapshotSource && { snapshotSource }),
  schedulerHints: null,
  createdAt: new Date().toISOString(),
});

const hostOf = (decision: ReturnType<FilterSchedulerPlacement['place']>) =>
  decision.placed ? decision.host : `not placed: ${decision.message}`;

describe('placing a share created from a snapshot (scheduler on)', () => {
  it('same pool: the source pool wins when it has the most room (affinity 100 and capacity)', async () => {
    const placement = await schedulerWith({
      'node-az1@alpha#p2': 500,
      'node-az1@bravo#p1': 500,
    });
    expect(hostOf(placement.place(clone(), [], NO_AFFINITY))).toBe(SOURCE_HOST);
  });

  it("another pool of the same back end: Manila's example, free 100 / 300 / 200 -> the sibling pool", async () => {
    const placement = await schedulerWith({
      'node-az1@alpha#p1': 900,
      'node-az1@alpha#p2': 700,
      'node-az1@bravo#p1': 800,
    });
    expect(hostOf(placement.place(clone(), [], NO_AFFINITY))).toBe('node-az1@alpha#p2');
  });

  it('another back end in the same zone: the source back end has no room left', async () => {
    const placement = await schedulerWith({
      'node-az1@alpha#p1': 995,
      'node-az1@alpha#p2': 995,
    });
    expect(hostOf(placement.place(clone(), [], NO_AFFINITY))).toBe('node-az1@bravo#p1');
  });

  it('another zone: the requested zone is honoured, on the compatible back end there', async () => {
    const placement = await schedulerWith({});
    const decision = placement.place(clone('az-2'), [], NO_AFFINITY);
    expect(decision).toEqual({
      placed: true,
      host: 'node-az2@charlie#p1',
      availabilityZone: 'az-2',
    });
  });

  it('an incompatible back end is filtered out: the largest pool, in another replication domain, is never chosen', async () => {
    const placement = await schedulerWith({});
    // A share not made from a snapshot goes to the largest pool...
    expect(hostOf(placement.place(clone('az-1', null), [], NO_AFFINITY))).toBe('node-az1@red#p1');
    // ...a clone of a snapshot on alpha does not.
    expect(hostOf(placement.place(clone(), [], NO_AFFINITY))).toMatch(/^node-az1@(alpha|bravo)#/);
  });

  it('no compatible pool: no valid host, CreateFromSnapshotFilter last, user message detail 016', async () => {
    const placement = await schedulerWith({
      'node-az1@alpha#p1': 995,
      'node-az1@alpha#p2': 995,
      'node-az1@bravo#p1': 995,
    });
    const decision = placement.place(clone(), [], NO_AFFINITY);
    expect(decision.placed).toBe(false);
    if (decision.placed) return;
    expect(decision.message).toBe(
      'No valid host was found. Failed to find a weighted host, the last executed filter was CreateFromSnapshotFilter.',
    );
    expect(decision.detail.userMessage).toEqual({
      actionId: '001',
      detailId: '016',
      userMessage:
        "allocate host: No storage could be allocated for this share request, CreateFromSnapshot filter didn't succeed.",
    });
  });

  it('a clone kept on its source pool (scheduler off) that its node handed back has nowhere else to go', async () => {
    const placement = await schedulerWith({});
    const decision = placement.place(
      clone('az-1', source('source-pool')),
      [SOURCE_HOST],
      NO_AFFINITY,
    );
    expect(decision.placed).toBe(false);
  });
});
