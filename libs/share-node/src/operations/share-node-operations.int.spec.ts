import type { CommandHandler } from '#hawser/application';
import {
  capabilitiesOf,
  shareDecider,
  shareStream,
  snapshotAggregateStatus,
  type ShareCommand,
  activeShareOf,
} from '#hawser/domain';
import type { SimulatedShareDriver } from '#hawser/drivers';
import type { SqliteEventStore } from '#hawser/eventstore';
import type { PlacementAdmission } from './placement-admission.js';
import type { ShareDriverOperations } from './share-driver-operations.js';
import { shareNodeOperationsProcessManager } from './share-node-operations.process-manager.js';
import { simulatedBackend, simulatedNode } from './test-support/simulated-node.js';
import {
  placementOn,
  snapshotRequest,
} from '../../../domain/src/share/test-support/share-history.js';
import {
  openSqliteLog,
  shareRequest,
  type SqliteLog,
} from '../../../process-managers/src/test-support/sqlite-log.js';

const HOST = 'sim@a#fast';
const now = () => '2026-11-22T10:00:00.000Z';
const specs = { driver_handles_share_servers: 'False', snapshot_support: 'True' };

/**
 * The share node against a real SQLite log and the simulated driver: what each claimed
 * operation records, and what recovery does with a claim a crash left open.
 */
describe('share node operations on a living share', () => {
  let log: SqliteLog;
  let events: SqliteEventStore;
  let commands: CommandHandler;
  let driver: SimulatedShareDriver;
  let operations: ShareDriverOperations;
  let admission: PlacementAdmission;
  let counter = 0;

  const run = (command: ShareCommand) =>
    commands.handle(shareDecider, shareStream('s1'), command, {
      commandId: `cmd-${(counter += 1)}`,
    });
  const state = async () =>
    activeShareOf((await commands.load(shareDecider, shareStream('s1'))).state);
  /** Hands every event of the share from `revision` on to the node's process manager. */
  const react = async (fromRevision: number) => {
    const pm = shareNodeOperationsProcessManager('n1', operations, admission);
    for (const event of await events.readStream('share-s1')) {
      if (event.revision >= fromRevision) await pm.handle(event);
    }
  };
  const revision = async () => (await commands.load(shareDecider, shareStream('s1'))).revision + 1;

  beforeEach(async () => {
    log = openSqliteLog('hawser-node-ops-');
    ({ events, commands } = log);
    driver = simulatedBackend('sim@a');
    ({ operations, admission } = await simulatedNode(commands, 'sim@a', driver, now));
    await run(
      shareRequest('s1', now(), {
        instanceId: 'i1',
        shareType: { id: 't1', name: 'default', extraSpecs: specs },
        capabilities: capabilitiesOf(specs),
      }),
    );
    await run(placementOn('i1', HOST, 'az-1', now()));
    await react(0);
    expect((await state()).instances[0]?.status).toBe('available');
  });
  afterEach(async () => {
    await driver.close();
    await log.close();
  });

  it('takes a requested snapshot once, even when its request is handled twice', async () => {
    const from = await revision();
    await run(snapshotRequest(now()));
    await react(from);
    await react(from);
    const snapshot = (await state()).snapshots[0];
    expect(snapshot && snapshotAggregateStatus(snapshot, () => null)).toBe('available');
    expect(snapshot?.instances[0]?.providerLocation).toMatch(/^simulated:/);
    expect(driver.hasSnapshot(snapshot?.instances[0]?.id ?? '')).toBe(true);
    const claims = (await events.readStream('share-s1')).filter(
      (e) => e.type === 'ShareDriverOperationStarted',
    );
    expect(claims).toHaveLength(2); // create_share, create_snapshot
  });

  it('settles a snapshot claim a crash left open by running the call again', async () => {
    await run(snapshotRequest(now()));
    const instanceId = (await state()).snapshots[0]?.instances[0]?.id as string;
    await run({
      type: 'StartDriverOperation',
      instanceId: 'i1',
      operation: 'create_snapshot',
      commandId: 'claimed-before-crash',
      host: HOST,
      snapshotId: 'snap1',
      snapshotInstanceId: instanceId,
      now: now(),
    });
    await operations.recover('s1', 'i1');
    const after = await state();
    expect(after.instances[0]?.pendingOperation).toBeNull();
    expect(after.snapshots[0]?.instances[0]?.status).toBe('available');
    expect(driver.hasSnapshot(instanceId)).toBe(true);
  });

  it('records a driver failure as a snapshot in error', async () => {
    driver.injectFailure({
      operation: 'createSnapshot',
      nthCall: 1,
      code: 'backend_error',
      userMessage: 'pool offline',
    });
    const from = await revision();
    await run(snapshotRequest(now()));
    await react(from);
    expect((await state()).snapshots[0]?.instances[0]?.status).toBe('error');
  });

  it('applies rules through update_access with per-rule results, and removes denied ones', async () => {
    const from = await revision();
    await run({
      type: 'AllowAccess',
      accessId: 'r-ip',
      accessType: 'ip',
      accessTo: '10.0.0.1',
      accessLevel: 'rw',
      metadata: {},
      ipv6: true,
      now: now(),
    });
    // Valid for Manila, but an NFS back end cannot enforce a user rule: the driver says error.
    await run({
      type: 'AllowAccess',
      accessId: 'r-user',
      accessType: 'user',
      accessTo: 'alice',
      accessLevel: 'rw',
      metadata: {},
      ipv6: true,
      now: now(),
    });
    await react(from);
    const applied = await state();
    expect(applied.accessRules.map((r) => [r.id, r.instances.i1])).toEqual([
      ['r-ip', 'active'],
      ['r-user', 'error'],
    ]);
    expect(driver.inspectShare('i1')?.rules.map((r) => r.accessTo)).toEqual(['10.0.0.1']);

    const denyFrom = await revision();
    await run({ type: 'DenyAccess', accessId: 'r-ip', now: now() });
    await react(denyFrom);
    expect((await state()).accessRules.map((r) => r.id)).toEqual(['r-user']);
    expect(driver.inspectShare('i1')?.rules).toEqual([]);
  });

  it('extends, and leaves a shrink that would lose data available at its old size', async () => {
    let from = await revision();
    await run({ type: 'ResizeShare', direction: 'extend', newSize: 5, now: now() });
    await react(from);
    expect([(await state()).size, driver.inspectShare('i1')?.sizeGiB]).toEqual([5, 5]);

    driver.setUsedGiB('i1', 3);
    from = await revision();
    await run({ type: 'ResizeShare', direction: 'shrink', newSize: 2, now: now() });
    await react(from);
    const after = await state();
    expect([after.size, after.instances[0]?.status]).toEqual([5, 'available']);
    const failed = (await events.readStream('share-s1')).find(
      (e) => e.type === 'ShareInstanceResizeFailed',
    );
    expect(failed?.data).toMatchObject({ possibleDataLoss: true });
  });
});
