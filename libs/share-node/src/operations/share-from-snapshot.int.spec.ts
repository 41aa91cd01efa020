import type { CommandHandler } from '#hawser/application';
import {
  capabilitiesOf,
  shareDecider,
  shareStream,
  type ShareCommand,
  type ActiveShare,
  type SnapshotSource,
  activeShareOf,
} from '#hawser/domain';
import type { SimulatedShareDriver } from '#hawser/drivers';
import type { SqliteEventStore } from '#hawser/eventstore';
import type { PlacementAdmission } from './placement-admission.js';
import { createFromSnapshotRequest } from './share-from-snapshot-calls.js';
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

const SOURCE_HOST = 'sim@a#fast';
const now = () => '2026-11-22T10:00:00.000Z';
const specs = {
  driver_handles_share_servers: 'False',
  snapshot_support: 'True',
  create_share_from_snapshot_support: 'True',
};

/**
 * The share node creating shares from a snapshot against a real SQLite log and the simulated
 * driver, which answers `creating_from_snapshot` across pools and advances one step (25, 50,
 * 75, 100) per get_share_status: the driver call, each poll, and recovery after a crash.
 */
describe('share node: creating shares from a snapshot', () => {
  let log: SqliteLog;
  let events: SqliteEventStore;
  let commands: CommandHandler;
  let driver: SimulatedShareDriver;
  let operations: ShareDriverOperations;
  let admission: PlacementAdmission;
  let source: SnapshotSource;
  let counter = 0;

  const run = (shareId: string, command: ShareCommand) =>
    commands.handle(shareDecider, shareStream(shareId), command, {
      commandId: `cmd-${(counter += 1)}`,
    });
  const stateOf = async (shareId: string): Promise<ActiveShare> =>
    activeShareOf((await commands.load(shareDecider, shareStream(shareId))).state);
  const typesOf = async (shareId: string) =>
    (await events.readStream(shareStream(shareId))).map((e) => e.type);
  /** Hands every event of a share to the node's process manager. */
  const react = async (shareId: string) => {
    const pm = shareNodeOperationsProcessManager('n1', operations, admission);
    for (const event of await events.readStream(shareStream(shareId))) await pm.handle(event);
  };
  const request = (shareId: string, snapshotSource?: SnapshotSource): ShareCommand =>
    shareRequest(shareId, now(), {
      shareType: { id: 't1', name: 'default', extraSpecs: specs },
      capabilities: capabilitiesOf(specs),
      availabilityZone: 'az-1',
      snapshotId: snapshotSource?.snapshotId ?? null,
      ...(snapshotSource && { snapshotSource }),
    });
  /** A clone requested and placed on `host` (as the scheduler would), not yet reacted to. */
  const placedClone = async (shareId: string, host: string) => {
    await run(shareId, request(shareId, source));
    await run(shareId, placementOn(`${shareId}-i`, host, 'az-1', now()));
  };

  beforeEach(async () => {
    log = openSqliteLog('hawser-from-snapshot-');
    ({ events, commands } = log);
    driver = simulatedBackend('sim@a', 'az-1', ['fast', 'slow']);
    ({ operations, admission } = await simulatedNode(commands, 'sim@a', driver, now));
    await run('src', request('src'));
    await run('src', placementOn('src-i', SOURCE_HOST, 'az-1', now()));
    await react('src');
    await run('src', snapshotRequest(now()));
    await react('src');
    const snapshot = (await stateOf('src')).snapshots[0];
    expect(snapshot?.instances[0]?.status).toBe('available');
    source = {
      snapshotId: 'snap1',
      snapshotInstanceId: snapshot?.instances[0]?.id as string,
      shareId: 'src',
      shareInstanceId: 'src-i',
      host: SOURCE_HOST,
      availabilityZone: 'az-1',
      size: 2,
      placement: 'scheduler',
    };
  });
  afterEach(async () => {
    await driver.close();
    await log.close();
  });

  it('in the source pool, the driver answers at once: available at 100% with export locations', async () => {
    await placedClone('c1', SOURCE_HOST);
    await react('c1');
    const instance = (await stateOf('c1')).instances[0];
    expect(instance).toMatchObject({ status: 'available', progress: '100%' });
    expect(instance?.exportLocations.length).toBeGreaterThan(0);
    expect(await typesOf('c1')).toEqual([
      'ShareRequested',
      'ShareScheduled',
      'ShareDriverOperationStarted',
      'ShareCreated',
    ]);
  });

  it('in another pool, it is deferred; each poll records progress, the last one available', async () => {
    await placedClone('c2', 'sim@a#slow');
    await react('c2');
    expect((await stateOf('c2')).instances[0]).toMatchObject({
      status: 'creating_from_snapshot',
      progress: '0%',
      pendingOperation: null,
    });
    const seen: (string | null)[] = [];
    for (let poll = 0; poll < 5; poll++) {
      await operations.pollCreatingFromSnapshot('c2', 'c2-i');
      seen.push((await stateOf('c2')).instances[0]?.progress ?? null);
    }
    expect(seen).toEqual(['25%', '50%', '75%', '100%', '100%']);
    const state = await stateOf('c2');
    expect(state.instances[0]?.status).toBe('available');
    expect(state.instances[0]?.exportLocations.length).toBeGreaterThan(0);
    expect((await typesOf('c2')).slice(2)).toEqual([
      'ShareDriverOperationStarted',
      'ShareCreationDeferred',
      'ShareCreationProgressed',
      'ShareCreationProgressed',
      'ShareCreationProgressed',
      'ShareCreated',
    ]);
  });

  it('a driver that fails to report ends the creation in error, with its message', async () => {
    await placedClone('c3', 'sim@a#slow');
    await react('c3');
    driver.injectFailure({
      operation: 'getShareStatus',
      nthCall: 1,
      code: 'backend_error',
      userMessage: 'The copy broke.',
    });
    await operations.pollCreatingFromSnapshot('c3', 'c3-i');
    const events3 = await events.readStream(shareStream('c3'));
    expect(events3.at(-1)).toMatchObject({
      type: 'ShareCreationFailed',
      data: { message: 'The copy broke.' },
    });
    expect((await stateOf('c3')).instances[0]).toMatchObject({ status: 'error', progress: null });
  });

  it('after a crash between the claim and the driver call, recovery calls create_share_from_snapshot', async () => {
    await placedClone('c4', 'sim@a#slow');
    await run('c4', {
      type: 'StartDriverOperation',
      instanceId: 'c4-i',
      operation: 'create_share_from_snapshot',
      commandId: 'crashed-1',
      host: 'sim@a#slow',
      now: now(),
    });
    await operations.recover('c4', 'c4-i');
    expect((await stateOf('c4')).instances[0]?.status).toBe('creating_from_snapshot');
  });

  it('after a crash once the driver answered, recovery records the deferral the driver reports (ensure_shares)', async () => {
    await placedClone('c5', 'sim@a#slow');
    await run('c5', {
      type: 'StartDriverOperation',
      instanceId: 'c5-i',
      operation: 'create_share_from_snapshot',
      commandId: 'crashed-2',
      host: 'sim@a#slow',
      now: now(),
    });
    const state = await stateOf('c5');
    const share = operations.refOf(state, state.instances[0] as ActiveShare['instances'][number]);
    await driver.createShareFromSnapshot(createFromSnapshotRequest('crashed-2', share, source));
    await operations.recover('c5', 'c5-i');
    expect((await stateOf('c5')).instances[0]).toMatchObject({
      status: 'creating_from_snapshot',
      pendingOperation: null,
    });
    // The poll goes on where the driver stands.
    await operations.pollCreatingFromSnapshot('c5', 'c5-i');
    expect((await stateOf('c5')).instances[0]?.progress).toBe('25%');
  });
});
