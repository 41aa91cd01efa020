import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppliedAccessRule } from '../common/access-rules.js';
import { DriverError } from './driver-error.js';
import type {
  AccessRule,
  PoolCapabilities,
  ShareDriver,
  ShareInstanceRef,
  ShareProtocol,
  ShareStatusResult,
  SnapshotInstanceRef,
} from './share-driver.js';

/** The two back ends every driver under contract runs: same replication domain, two AZs. */
export const CONTRACT_BACKENDS = {
  primary: {
    name: 'node-a@alpha',
    availabilityZone: 'az-1',
    replicationDomain: 'contract-domain',
    pools: [{ name: 'p1' }, { name: 'p2' }],
  },
  secondary: {
    name: 'node-b@beta',
    availabilityZone: 'az-2',
    replicationDomain: 'contract-domain',
    pools: [{ name: 'p1' }],
  },
} as const;

export interface ShareDriverContractFixture {
  /** Initialized driver for CONTRACT_BACKENDS.primary. */
  readonly primary: ShareDriver;
  /** Initialized driver for CONTRACT_BACKENDS.secondary. */
  readonly secondary: ShareDriver;
  /** Puts `bytes` of data into a share, as a tenant writing to it would. */
  fillShare(driver: ShareDriver, share: ShareInstanceRef, bytes: number): Promise<void>;
  /** The rules the back end enforces for a share, after read-only casting. */
  appliedRules(driver: ShareDriver, share: ShareInstanceRef): Promise<readonly AppliedAccessRule[]>;
  dispose(): Promise<void>;
}

const POOL_KEYS: readonly (keyof PoolCapabilities)[] = [
  'pool_name',
  'total_capacity_gb',
  'free_capacity_gb',
  'allocated_capacity_gb',
  'provisioned_capacity_gb',
  'reserved_percentage',
  'reserved_snapshot_percentage',
  'reserved_share_extend_percentage',
  'thin_provisioning',
  'max_over_subscription_ratio',
  'qos',
  'dedupe',
  'compression',
  'snapshot_support',
  'create_share_from_snapshot_support',
  'revert_to_snapshot_support',
  'mount_snapshot_support',
  'replication_type',
  'replication_domain',
  'driver_handles_share_servers',
  'ipv4_support',
  'ipv6_support',
  'share_backend_name',
  'vendor_name',
  'driver_version',
  'storage_protocol',
  'goodness_function',
  'filter_function',
  'sg_consistent_snapshot_support',
  'security_service_update_support',
  'network_allocation_update_support',
  'share_server_multiple_subnet_support',
  'timestamp',
];

const GIB = 1024 ** 3;

export function newShare(
  backend: string,
  pool: string,
  overrides: Partial<ShareInstanceRef> = {},
): ShareInstanceRef {
  return {
    shareId: randomUUID(),
    instanceId: randomUUID(),
    sizeGiB: 1,
    protocol: 'NFS' as ShareProtocol,
    host: `${backend}#${pool}`,
    ...overrides,
  };
}

export function newSnapshot(
  share: ShareInstanceRef,
  snapshotId = randomUUID(),
): SnapshotInstanceRef {
  return {
    snapshotId,
    snapshotInstanceId: randomUUID(),
    shareId: share.shareId,
    shareInstanceId: share.instanceId,
    sizeGiB: share.sizeGiB,
  };
}

export function command(): string {
  return `cmd-${randomUUID()}`;
}

/** Polls like the share node's periodic task, faster; returns every answer seen. */
export async function pollUntilSettled(
  driver: ShareDriver,
  share: ShareInstanceRef,
  timeoutMs = 20_000,
): Promise<ShareStatusResult[]> {
  const seen: ShareStatusResult[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await driver.getShareStatus({ commandId: command(), share });
    seen.push(status);
    if (status.status !== 'creating_from_snapshot') return seen;
    if (Date.now() > deadline) throw new Error(`share ${share.instanceId} still copying`);
    await sleep(5);
  }
}

function ipRule(accessTo: string, accessLevel: 'rw' | 'ro' = 'rw'): AccessRule {
  return { accessId: randomUUID(), accessType: 'ip', accessTo, accessLevel };
}

/** The behaviour every share driver must show; each driver's spec runs it with its fixture. */
export function describeShareDriverContract(
  driverName: string,
  createFixture: () => Promise<ShareDriverContractFixture>,
): void {
  describe(`${driverName} driver: share driver contract`, () => {
    let fixture: ShareDriverContractFixture;
    let primary: ShareDriver;
    let secondary: ShareDriver;
    const A = CONTRACT_BACKENDS.primary.name;
    const B = CONTRACT_BACKENDS.secondary.name;

    beforeEach(async () => {
      fixture = await createFixture();
      primary = fixture.primary;
      secondary = fixture.secondary;
    });

    afterEach(async () => {
      await fixture.dispose();
    });

    describe('shares', () => {
      it('given a pool of the back end, when a share is created, then it is available with a preferred export location', async () => {
        const share = newShare(A, 'p1');

        const created = await primary.createShare({ commandId: command(), share });

        expect(created.exportLocations.filter((l) => l.preferred)).toHaveLength(1);
        expect(created.exportLocations.some((l) => l.isAdminOnly)).toBe(true);
        const status = await primary.getShareStatus({ commandId: command(), share });
        expect(status).toMatchObject({ status: 'available', progress: 100 });
        expect(status.exportLocations).toEqual(created.exportLocations);
      });

      it('when the same command is repeated, then the share is allocated once', async () => {
        const share = newShare(A, 'p1', { sizeGiB: 3 });
        const commandId = command();

        const first = await primary.createShare({ commandId, share });
        const second = await primary.createShare({ commandId, share });

        expect(second).toEqual(first);
        const pool = await poolCapabilities(primary, 'p1');
        expect(pool.allocated_capacity_gb).toBe(3);
      });

      it('when a share names a pool of another back end, then it is refused as invalid', async () => {
        const share = newShare(B, 'p1');

        await expect(primary.createShare({ commandId: command(), share })).rejects.toMatchObject({
          code: 'invalid_request',
        });
      });

      it('when the protocol is not offered, then creation fails with a DriverError for the user', async () => {
        const share = newShare(A, 'p1', { protocol: 'HDFS' });

        const failure = await primary.createShare({ commandId: command(), share }).catch((e) => e);

        expect(failure).toBeInstanceOf(DriverError);
        expect(failure).toMatchObject({ code: 'unsupported' });
        expect((failure as DriverError).userMessage).toContain('HDFS');
      });

      it('when a share is deleted twice, then the second delete finds nothing and its status is not found', async () => {
        const share = newShare(A, 'p2');
        await primary.createShare({ commandId: command(), share });

        const first = await primary.deleteShare({ commandId: command(), share });
        const second = await primary.deleteShare({ commandId: command(), share });

        expect(first).toEqual({ existed: true });
        expect(second).toEqual({ existed: false });
        await expect(primary.getShareStatus({ commandId: command(), share })).rejects.toMatchObject(
          { code: 'not_found' },
        );
        expect((await poolCapabilities(primary, 'p2')).allocated_capacity_gb).toBe(0);
      });

      it('when a share is extended, then shrinking back succeeds while its data fits', async () => {
        const share = newShare(A, 'p1', { sizeGiB: 2 });
        await primary.createShare({ commandId: command(), share });

        await primary.extendShare({ commandId: command(), share, newSizeGiB: 4 });
        await primary.shrinkShare({
          commandId: command(),
          share: { ...share, sizeGiB: 4 },
          newSizeGiB: 3,
        });

        expect((await poolCapabilities(primary, 'p1')).allocated_capacity_gb).toBe(3);
      });

      it('given more data than the new size, when shrinking, then it fails with possible data loss', async () => {
        const share = newShare(A, 'p1', { sizeGiB: 2 });
        await primary.createShare({ commandId: command(), share });
        await fixture.fillShare(primary, share, 1.5 * GIB);

        await expect(
          primary.shrinkShare({ commandId: command(), share, newSizeGiB: 1 }),
        ).rejects.toMatchObject({ code: 'shrinking_possible_data_loss' });
        expect((await poolCapabilities(primary, 'p1')).allocated_capacity_gb).toBe(2);
      });
    });

    describe('snapshots', () => {
      it('given a snapshot, then its share cannot be deleted until the snapshot is', async () => {
        const share = newShare(A, 'p1');
        const snapshot = newSnapshot(share);
        await primary.createShare({ commandId: command(), share });

        const created = await primary.createSnapshot({ commandId: command(), snapshot, share });
        const refused = primary.deleteShare({ commandId: command(), share });

        expect(created).toMatchObject({ status: 'available', progress: 100 });
        await expect(refused).rejects.toMatchObject({ code: 'invalid_request' });
        expect(await primary.deleteSnapshot({ commandId: command(), snapshot, share })).toEqual({
          existed: true,
        });
        expect(await primary.deleteSnapshot({ commandId: command(), snapshot, share })).toEqual({
          existed: false,
        });
        expect(await primary.deleteShare({ commandId: command(), share })).toEqual({
          existed: true,
        });
      });

      it("given data written and an extend after a snapshot, when reverted to it, then the data is gone and the size is the snapshot's", async () => {
        const share = newShare(A, 'p1', { sizeGiB: 2 });
        const snapshot = newSnapshot(share);
        await primary.createShare({ commandId: command(), share });
        await primary.createSnapshot({ commandId: command(), snapshot, share });
        await fixture.fillShare(primary, share, 1.5 * GIB);
        await primary.extendShare({ commandId: command(), share, newSizeGiB: 3 });
        const extended = { ...share, sizeGiB: 3 };

        await primary.revertToSnapshot({ commandId: command(), snapshot, share: extended });

        expect((await poolCapabilities(primary, 'p1')).allocated_capacity_gb).toBe(2);
        // The 1.5 GiB written after the snapshot are gone: a 1 GiB share holds what is left.
        await primary.shrinkShare({ commandId: command(), share, newSizeGiB: 1 });
        const other = newSnapshot(newShare(A, 'p1'));
        await expect(
          primary.revertToSnapshot({ commandId: command(), snapshot: other, share }),
        ).rejects.toMatchObject({ code: 'snapshot_not_found' });
      });

      it('when creating from a snapshot in the same pool, then the share is available at once', async () => {
        const parent = newShare(A, 'p1');
        const snapshot = newSnapshot(parent);
        await primary.createShare({ commandId: command(), share: parent });
        await primary.createSnapshot({ commandId: command(), snapshot, share: parent });
        const share = newShare(A, 'p1');

        const created = await primary.createShareFromSnapshot({
          commandId: command(),
          share,
          snapshot,
          parentShare: parent,
        });

        expect(created.status).toBe('available');
        expect(created.progress).toBe(100);
        expect(created.exportLocations?.length).toBeGreaterThan(0);
      });

      it('when creating from a snapshot in another pool, then progress rises to 100 and the share becomes available', async () => {
        const parent = newShare(A, 'p1');
        const snapshot = newSnapshot(parent);
        await primary.createShare({ commandId: command(), share: parent });
        await primary.createSnapshot({ commandId: command(), snapshot, share: parent });
        const share = newShare(A, 'p2');

        const created = await primary.createShareFromSnapshot({
          commandId: command(),
          share,
          snapshot,
          parentShare: parent,
        });
        const seen = await pollUntilSettled(primary, share);

        expect(['available', 'creating_from_snapshot']).toContain(created.status);
        const progress = [created.progress, ...seen.map((s) => s.progress)];
        expect(progress).toEqual([...progress].sort((a, b) => a - b));
        expect(seen.at(-1)).toMatchObject({ status: 'available', progress: 100 });
        expect(seen.at(-1)?.exportLocations?.length).toBeGreaterThan(0);
      });

      it('when creating from a snapshot on another back end of the domain, then the share becomes available there', async () => {
        const parent = newShare(A, 'p1');
        const snapshot = newSnapshot(parent);
        await primary.createShare({ commandId: command(), share: parent });
        await primary.createSnapshot({ commandId: command(), snapshot, share: parent });
        const share = newShare(B, 'p1');

        await secondary.createShareFromSnapshot({
          commandId: command(),
          share,
          snapshot,
          parentShare: parent,
        });
        const seen = await pollUntilSettled(secondary, share);

        expect(seen.at(-1)).toMatchObject({ status: 'available', progress: 100 });
      });

      it('when the snapshot does not exist, then creation from it fails with snapshot not found', async () => {
        const parent = newShare(A, 'p1');
        await primary.createShare({ commandId: command(), share: parent });

        await expect(
          primary.createShareFromSnapshot({
            commandId: command(),
            share: newShare(A, 'p1'),
            snapshot: newSnapshot(parent),
            parentShare: parent,
          }),
        ).rejects.toMatchObject({ code: 'snapshot_not_found' });
      });
    });

    describe('access', () => {
      it('when rules are added, then valid ones are active and a rule of the wrong type is in error', async () => {
        const share = newShare(A, 'p1');
        await primary.createShare({ commandId: command(), share });
        const good = ipRule('10.0.0.0/24');
        const wrongType: AccessRule = {
          accessId: randomUUID(),
          accessType: 'user',
          accessTo: 'alice',
          accessLevel: 'rw',
        };

        const result = await primary.updateAccess({
          commandId: command(),
          share,
          accessRules: [good, wrongType],
          addRules: [good, wrongType],
          deleteRules: [],
          castRulesToReadonly: false,
        });

        expect(result.ruleUpdates[good.accessId]).toEqual({ state: 'active' });
        expect(result.ruleUpdates[wrongType.accessId]).toEqual({ state: 'error' });
        expect(await fixture.appliedRules(primary, share)).toEqual([
          { ...good, accessLevel: 'rw' },
        ]);
      });

      it('when a never-applied rule is deleted, then the call succeeds and the other rules stay', async () => {
        const share = newShare(A, 'p1');
        await primary.createShare({ commandId: command(), share });
        const kept = ipRule('10.0.0.5');
        await primary.updateAccess({
          commandId: command(),
          share,
          accessRules: [kept],
          addRules: [kept],
          deleteRules: [],
          castRulesToReadonly: false,
        });

        await primary.updateAccess({
          commandId: command(),
          share,
          accessRules: [kept],
          addRules: [],
          deleteRules: [ipRule('10.9.9.9')],
          castRulesToReadonly: false,
        });

        expect((await fixture.appliedRules(primary, share)).map((r) => r.accessTo)).toEqual([
          '10.0.0.5',
        ]);
      });

      it('when a full sync casts rules to read-only, then exactly the listed rules apply, all read-only', async () => {
        const share = newShare(A, 'p1');
        await primary.createShare({ commandId: command(), share });
        const old = ipRule('10.0.0.1');
        await primary.updateAccess({
          commandId: command(),
          share,
          accessRules: [old],
          addRules: [old],
          deleteRules: [],
          castRulesToReadonly: false,
        });
        const replacement = [ipRule('10.0.1.0/24', 'rw'), ipRule('2001:db8::/64', 'ro')];

        await primary.updateAccess({
          commandId: command(),
          share,
          accessRules: replacement,
          addRules: [],
          deleteRules: [],
          castRulesToReadonly: true,
        });

        const applied = await fixture.appliedRules(primary, share);
        expect(applied.map((r) => r.accessTo).sort()).toEqual(['10.0.1.0/24', '2001:db8::/64']);
        expect(applied.every((r) => r.accessLevel === 'ro')).toBe(true);
      });
    });

    describe('start-up reconciliation', () => {
      it('when shares are ensured, then existing ones are present and unknown ones missing', async () => {
        const share = newShare(A, 'p1');
        await primary.createShare({ commandId: command(), share });
        const unknown = newShare(A, 'p2');

        const result = await primary.ensureShares({
          commandId: command(),
          shares: [share, unknown],
        });

        expect(result.shares).toEqual([
          expect.objectContaining({
            instanceId: share.instanceId,
            outcome: 'present',
            status: 'available',
          }),
          { instanceId: unknown.instanceId, outcome: 'missing', status: 'missing' },
        ]);
        expect(result.recovered).toEqual([]);
      });
    });

    describe('replication', () => {
      it('given an active share, when a replica is added, snapshotted, promoted and removed, then states follow Manila', async () => {
        const active = newShare(A, 'p1', { replicaState: 'active' });
        await primary.createShare({ commandId: command(), share: active });
        const rule = ipRule('10.1.0.0/16');
        const replica = newShare(B, 'p1', { shareId: active.shareId, replicaState: 'out_of_sync' });
        const replicaList = [active, replica];

        const created = await secondary.createReplica({
          commandId: command(),
          replicaList,
          newReplica: replica,
          accessRules: [rule],
          replicaSnapshots: [],
        });
        expect(created).toMatchObject({ replicaState: 'in_sync', accessRulesStatus: 'active' });
        expect(created.exportLocations.length).toBeGreaterThan(0);
        expect((await fixture.appliedRules(secondary, replica)).map((r) => r.accessLevel)).toEqual([
          'ro',
        ]);

        const inSync = { ...replica, replicaState: 'in_sync' as const };
        const refreshed = await secondary.updateReplicaState({
          commandId: command(),
          replicaList: [active, inSync],
          replica: inSync,
          accessRules: [rule],
          replicaSnapshots: [],
        });
        expect(refreshed).toEqual({ replicaState: 'in_sync' });

        const snapshotId = randomUUID();
        const onActive = newSnapshot(active, snapshotId);
        const onReplica = newSnapshot(inSync, snapshotId);
        const snapshots = await primary.createReplicatedSnapshot({
          commandId: command(),
          replicaList: [active, inSync],
          replicaSnapshots: [onActive, onReplica],
        });
        const byId = new Map(snapshots.snapshotInstances.map((s) => [s.snapshotInstanceId, s]));
        expect(byId.get(onActive.snapshotInstanceId)?.status).toBe('available');
        expect(['available', 'creating']).toContain(byId.get(onReplica.snapshotInstanceId)?.status);
        const replicaSnapshot = await secondary.updateReplicatedSnapshot({
          commandId: command(),
          replicaList: [active, inSync],
          shareReplica: inSync,
          replicaSnapshots: [onActive, onReplica],
          replicaSnapshot: { ...onReplica, status: 'creating' },
        });
        expect(replicaSnapshot).toMatchObject({ status: 'available', progress: 100 });

        const promoted = await secondary.promoteReplica({
          commandId: command(),
          replicaList: [active, inSync],
          replica: inSync,
          accessRules: [rule],
        });
        expect(promoted.replicas).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ instanceId: inSync.instanceId, replicaState: 'active' }),
            expect.objectContaining({ instanceId: active.instanceId, replicaState: 'in_sync' }),
          ]),
        );
        expect((await fixture.appliedRules(secondary, replica)).map((r) => r.accessLevel)).toEqual([
          'rw',
        ]);

        const newActive = { ...inSync, replicaState: 'active' as const };
        const oldActive = { ...active, replicaState: 'in_sync' as const };
        const deleted = await secondary.deleteReplicatedSnapshot({
          commandId: command(),
          replicaList: [newActive, oldActive],
          replicaSnapshots: [onActive, onReplica],
        });
        // The new active's instance is gone; the other is gone too, or left to its back end's
        // refresh, which finds it deleted.
        const statusOf = (id: string) =>
          deleted.snapshotInstances.find((s) => s.snapshotInstanceId === id)?.status;
        expect(statusOf(onReplica.snapshotInstanceId)).toBe('deleted');
        expect(['deleted', 'deleting']).toContain(statusOf(onActive.snapshotInstanceId));
        await expect(
          primary.updateReplicatedSnapshot({
            commandId: command(),
            replicaList: [newActive, oldActive],
            shareReplica: oldActive,
            replicaSnapshots: [onActive, onReplica],
            replicaSnapshot: { ...onActive, status: 'deleting' },
          }),
        ).rejects.toMatchObject({ code: 'snapshot_not_found' });
        await primary.deleteReplica({
          commandId: command(),
          replicaList: [newActive, oldActive],
          replica: oldActive,
          replicaSnapshots: [],
        });
        await expect(
          primary.getShareStatus({ commandId: command(), share: oldActive }),
        ).rejects.toMatchObject({ code: 'not_found' });
      });

      it('when a replica snapshot being deleted is refreshed, then it reports snapshot not found', async () => {
        const active = newShare(A, 'p1', { replicaState: 'active' });
        await primary.createShare({ commandId: command(), share: active });
        const replica = newShare(B, 'p1', { shareId: active.shareId, replicaState: 'in_sync' });
        await secondary.createReplica({
          commandId: command(),
          replicaList: [active, replica],
          newReplica: replica,
          accessRules: [],
          replicaSnapshots: [],
        });
        const onReplica = newSnapshot(replica);

        await expect(
          secondary.updateReplicatedSnapshot({
            commandId: command(),
            replicaList: [active, replica],
            shareReplica: replica,
            replicaSnapshots: [onReplica],
            replicaSnapshot: { ...onReplica, status: 'deleting' },
          }),
        ).rejects.toMatchObject({ code: 'snapshot_not_found' });
      });
    });

    describe('pool statistics', () => {
      it('when stats are read, then every pool reports every capability key the scheduler reads', async () => {
        const report = await primary.getPoolStats({ commandId: command() });

        expect(report.backend).toBe(A);
        expect(report.availabilityZone).toBe(CONTRACT_BACKENDS.primary.availabilityZone);
        expect(report.pools.map((p) => p.name)).toEqual([`${A}#p1`, `${A}#p2`]);
        for (const pool of report.pools) {
          for (const key of POOL_KEYS) expect(pool.capabilities).toHaveProperty(key);
          expect(pool.capabilities.replication_domain).toBe('contract-domain');
          expect(pool.capabilities.replication_type).toBe('readable');
          expect(pool.capabilities.share_backend_name).toBe('alpha');
          expect(typeof pool.capabilities.free_capacity_gb).toBe('number');
        }
      });
    });
  });
}

async function poolCapabilities(driver: ShareDriver, pool: string): Promise<PoolCapabilities> {
  const report = await driver.getPoolStats({ commandId: command() });
  const found = report.pools.find((entry) => entry.pool === pool);
  if (!found) throw new Error(`pool ${pool} missing from stats`);
  return found.capabilities;
}
