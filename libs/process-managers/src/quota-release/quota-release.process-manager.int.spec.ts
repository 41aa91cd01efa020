import type { CommandHandler } from '#hawser/application';
import {
  MANILA_DEFAULT_QUOTAS,
  quotaDecider,
  quotaStream,
  shareCreationDeltas,
  snapshotCreationDeltas,
} from '#hawser/domain';
import type { SqliteEventStore } from '#hawser/eventstore';
import { openSqliteLog, type SqliteLog } from '../test-support/sqlite-log.js';
import { quotaReleaseProcessManager } from './quota-release.process-manager.js';

describe('quota release process manager', () => {
  let log: SqliteLog;
  let events: SqliteEventStore;
  let commands: CommandHandler;

  beforeEach(() => {
    log = openSqliteLog('hawser-quota-release-');
    ({ events, commands } = log);
  });
  afterEach(() => log.close());

  it('given a counted share, when its deletion is handled twice, then it is released once', async () => {
    await commands.handle(
      quotaDecider,
      quotaStream('p1'),
      {
        type: 'ReserveQuota',
        projectId: 'p1',
        holderId: 's1',
        holderKind: 'share',
        deltas: shareCreationDeltas(3, false),
        defaults: MANILA_DEFAULT_QUOTAS,
        now: 't0',
      },
      { commandId: 'reserve-1' },
    );
    await events.append(
      'share-s1',
      [
        {
          id: 'e1',
          type: 'ShareRequested',
          data: { shareId: 's1', projectId: 'p1', size: 3 },
          metadata: {},
        },
        { id: 'e2', type: 'ShareDeleted', data: { shareId: 's1', deletedAt: 't1' }, metadata: {} },
      ],
      { expectedRevision: 'no_stream' },
    );
    const [, deleted] = await events.readStream('share-s1');
    const processManager = quotaReleaseProcessManager(events, commands, () => 't2');

    await processManager.handle(deleted!);
    await processManager.handle(deleted!);

    const quota = await events.readStream(quotaStream('p1'));
    expect(quota.map((e) => e.type)).toEqual(['QuotaReserved', 'QuotaReleased']);
    expect(quota[1]?.data).toEqual({
      projectId: 'p1',
      holderId: 's1',
      deltas: { shares: 1, gigabytes: 3 },
      releasedAt: 't2',
    });
    expect(quota[1]?.metadata.$causationId).toBe(deleted!.id);
  });

  const snapshotHolder = async (projectId: string) =>
    commands.handle(
      quotaDecider,
      quotaStream(projectId),
      {
        type: 'ReserveQuota',
        projectId,
        holderId: 'snap-1',
        holderKind: 'snapshot',
        deltas: snapshotCreationDeltas(3),
        defaults: MANILA_DEFAULT_QUOTAS,
        now: 't0',
      },
      { commandId: `reserve-snap-${projectId}` },
    );

  /** The share's history up to the snapshot: its size and requester come from there. */
  const snapshotHistory = [
    {
      id: 'share-requested',
      type: 'ShareRequested',
      data: { shareId: 's1', projectId: 'p1', size: 3 },
      metadata: {},
    },
    {
      id: 'snap-requested',
      type: 'SnapshotRequested',
      data: { snapshotId: 'snap-1', projectId: 'p2', userId: 'u2', size: 3, instances: [] },
      metadata: {},
    },
  ];

  it.each([
    ['names its project', { projectId: 'p2' }],
    ['was written before it named its project', {}],
  ])(
    'given a counted snapshot, when its deletion (that %s) is handled twice, then the requesting project releases it once',
    async (_, named) => {
      await snapshotHolder('p2');
      await events.append(
        'share-s1',
        [
          ...snapshotHistory,
          {
            id: 'snap-deleted',
            type: 'SnapshotDeleted',
            data: { snapshotId: 'snap-1', ...named, deletedAt: 't1' },
            metadata: {},
          },
        ],
        { expectedRevision: 'any' },
      );
      const deleted = (await events.readStream('share-s1')).at(-1)!;
      const processManager = quotaReleaseProcessManager(events, commands, () => 't2');

      await processManager.handle(deleted);
      await processManager.handle(deleted);

      const quota = await events.readStream(quotaStream('p2'));
      expect(quota.map((e) => e.type)).toEqual(['QuotaReserved', 'QuotaReleased']);
      expect(quota[1]?.data).toMatchObject({
        holderId: 'snap-1',
        userId: 'u2',
        deltas: { snapshots: 1, snapshot_gigabytes: 3 },
      });
    },
  );

  const driverFailed = {
    id: 'failed',
    type: 'ShareInstanceResizeFailed',
    data: {
      instanceId: 'i1',
      commandId: 'node-1',
      message: 'no room',
      possibleDataLoss: false,
      failedAt: 't2',
    },
    metadata: {},
  };
  const schedulerRefused = {
    id: 'refused',
    type: 'ShareExtendRefused',
    data: {
      instanceIds: ['i1'],
      message: 'No valid host was found.',
      detail: { lastFilter: 'CapacityFilter' },
      refusedAt: 't2',
    },
    metadata: {},
  };

  it.each([
    ['the driver failed', driverFailed, {}],
    ['the scheduler found no room', schedulerRefused, { awaitsCapacityCheck: true }],
  ])(
    'given a counted extend, when its ending (%s) is handled twice, then the extend is given back once',
    async (_, ending, check) => {
      await commands.handle(
        quotaDecider,
        quotaStream('p1'),
        {
          type: 'ReserveQuota',
          projectId: 'p1',
          holderId: 's1',
          holderKind: 'share',
          deltas: shareCreationDeltas(3, false),
          defaults: MANILA_DEFAULT_QUOTAS,
          now: 't0',
        },
        { commandId: 'reserve-1' },
      );
      await commands.handle(
        quotaDecider,
        quotaStream('p1'),
        {
          type: 'AdjustQuota',
          projectId: 'p1',
          holderId: 's1',
          adjustmentId: 'extend-1',
          deltas: { gigabytes: 2 },
          defaults: MANILA_DEFAULT_QUOTAS,
          now: 't1',
        },
        { commandId: 'extend-1' },
      );
      await events.append(
        'share-s1',
        [
          {
            id: 'requested',
            type: 'ShareRequested',
            data: { shareId: 's1', instanceId: 'i1', projectId: 'p1', size: 3, createdAt: 't0' },
            metadata: {},
          },
          {
            id: 'created',
            type: 'ShareCreated',
            data: { instanceId: 'i1', exportLocations: [], createdAt: 't0' },
            metadata: {},
          },
          {
            id: 'resize',
            type: 'ShareResizeRequested',
            data: {
              direction: 'extend',
              instanceIds: ['i1'],
              newSize: 5,
              ...check,
              requestedAt: 't1',
            },
            metadata: { commandId: 'extend-1' },
          },
          ending,
        ],
        { expectedRevision: 'no_stream' },
      );
      const failed = (await events.readStream('share-s1')).at(-1)!;
      const processManager = quotaReleaseProcessManager(events, commands, () => 't3');

      await processManager.handle(failed);
      await processManager.handle(failed);

      const quota = await events.readStream(quotaStream('p1'));
      expect(quota.map((e) => e.type)).toEqual([
        'QuotaReserved',
        'QuotaAdjusted',
        'QuotaAdjustmentReverted',
      ]);
      expect(quota[2]?.data).toMatchObject({ adjustmentId: 'extend-1', deltas: { gigabytes: 2 } });
    },
  );
});
