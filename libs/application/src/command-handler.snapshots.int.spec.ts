import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  MANILA_DEFAULT_QUOTAS,
  QUOTA_SNAPSHOT_EVERY,
  QUOTA_STATE_VERSION,
  quotaDecider,
  quotaStream,
  shareCreationDeltas,
  type QuotaCommand,
} from '#hawser/domain';
import {
  SqliteEventStore,
  SqliteSnapshotStore,
  WrongExpectedRevisionError,
} from '#hawser/eventstore';
import { CommandHandler } from './command-handler.js';

const stream = quotaStream('p1');
const defaults = { ...MANILA_DEFAULT_QUOTAS, shares: -1, gigabytes: -1 };
const reserve = (holderId: string): QuotaCommand => ({
  type: 'ReserveQuota',
  projectId: 'p1',
  holderId,
  holderKind: 'share',
  deltas: shareCreationDeltas(1, false),
  defaults,
  now: '2026-11-23T10:00:00.000Z',
});
const release = (holderId: string): QuotaCommand => ({
  type: 'ReleaseQuota',
  projectId: 'p1',
  holderId,
  deltas: shareCreationDeltas(1, false),
  now: '2026-11-23T11:00:00.000Z',
});

describe('command handling from snapshots (real SQLite log and snapshot file)', () => {
  let dir: string;
  let events: SqliteEventStore;
  let snapshots: SqliteSnapshotStore;
  const snapshotFile = () => path.join(dir, 'snapshots.sqlite');

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-snapshots-'));
    events = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    snapshots = new SqliteSnapshotStore(snapshotFile());
  });
  afterEach(async () => {
    await snapshots.close();
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Reserves `count` holders from h`from` on, releasing every third one, through `handler`. */
  const history = async (handler: CommandHandler, count: number, from = 0) => {
    for (let i = from; i < from + count; i += 1) {
      await handler.handle(quotaDecider, stream, reserve(`h${i}`), { commandId: `r${i}` });
      if (i % 3 === 0) {
        await handler.handle(quotaDecider, stream, release(`h${i}`), { commandId: `x${i}` });
      }
    }
  };

  it('writes a snapshot once the policy has that many events to fold, and keeps the newest', async () => {
    const handler = new CommandHandler(events, snapshots);
    for (let i = 0; i < QUOTA_SNAPSHOT_EVERY - 1; i += 1) {
      await handler.handle(quotaDecider, stream, reserve(`s${i}`), { commandId: `s${i}` });
    }
    expect(await snapshots.read(stream)).toBeUndefined();
    await history(handler, 3 * QUOTA_SNAPSHOT_EVERY);
    const snapshot = await snapshots.read(stream);
    const [head] = await events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    expect(snapshot?.stateVersion).toBe(QUOTA_STATE_VERSION);
    expect(head!.revision - snapshot!.revision).toBeLessThan(QUOTA_SNAPSHOT_EVERY);
    const [atSnapshot] = await events.readStream(stream, { fromRevision: snapshot!.revision });
    expect(atSnapshot?.id).toBe(snapshot?.eventId);
  });

  it('loads the state and revision a whole replay gives, and the same after the snapshot file is deleted', async () => {
    await history(new CommandHandler(events, snapshots), 200);
    const replayed = await new CommandHandler(events).load(quotaDecider, stream);
    expect(await new CommandHandler(events, snapshots).load(quotaDecider, stream)).toEqual(
      replayed,
    );
    expect(replayed.state.usage.shares).toBe(133);

    await snapshots.close();
    fs.rmSync(snapshotFile());
    snapshots = new SqliteSnapshotStore(snapshotFile());
    const handler = new CommandHandler(events, snapshots);
    expect(await handler.load(quotaDecider, stream)).toEqual(replayed);
    const result = await handler.handle(quotaDecider, stream, reserve('after'), {
      commandId: 'after',
    });
    expect(result.revision).toBe(replayed.revision + 1);
    // The replay that found no snapshot wrote one.
    expect((await snapshots.read(stream))?.revision).toBe(replayed.revision);
  });

  it('folds onto the state it remembers what other writers appended since', async () => {
    const remembering = new CommandHandler(events, snapshots);
    const otherSnapshots = new SqliteSnapshotStore(':memory:');
    const other = new CommandHandler(events, otherSnapshots);
    await history(remembering, 10);
    await history(other, 10, 10);
    await history(remembering, 10, 20);
    const replayed = await new CommandHandler(events).load(quotaDecider, stream);
    expect(await remembering.load(quotaDecider, stream)).toEqual(replayed);
    expect(replayed.state.usage.shares).toBe(20);
    await otherSnapshots.close();
  });

  it('decides a retrying command on the state it keeps in memory, unread, and on the stream as read once another writer appended', async () => {
    const reads: unknown[] = [];
    const counted = new Proxy(events, {
      get: (target, prop, receiver) =>
        prop === 'readStream'
          ? (...args: Parameters<SqliteEventStore['readStream']>) => {
              reads.push(args[1]);
              return target.readStream(...args);
            }
          : Reflect.get(target, prop, receiver),
    });
    const remembering = new CommandHandler(counted, snapshots);
    await history(remembering, 5);
    reads.length = 0;

    await remembering.handle(
      quotaDecider,
      stream,
      reserve('unread'),
      { commandId: 'u' },
      {
        retryOnConflict: 5,
      },
    );
    const unread = reads.length;
    await history(new CommandHandler(events), 3, 100);
    await remembering.handle(
      quotaDecider,
      stream,
      reserve('after'),
      { commandId: 'a' },
      {
        retryOnConflict: 5,
      },
    );

    expect(unread).toBe(0);
    expect(reads).toHaveLength(1);
    const replayed = await new CommandHandler(events).load(quotaDecider, stream);
    expect(await remembering.load(quotaDecider, stream)).toEqual(replayed);
    expect(replayed.state.counted.slice(-2)).toEqual(['h102', 'after']);
  });

  it('ignores a snapshot of another state version, or whose event the stream does not hold', async () => {
    await history(new CommandHandler(events, snapshots), 100);
    const replayed = await new CommandHandler(events).load(quotaDecider, stream);
    const snapshot = (await snapshots.read(stream))!;
    const wrong = { ...snapshot, state: { limits: {}, holdings: {}, released: [] } };

    await snapshots.write({ ...wrong, stateVersion: QUOTA_STATE_VERSION + 1 });
    expect(await new CommandHandler(events, snapshots).load(quotaDecider, stream)).toEqual(
      replayed,
    );
    await snapshots.write({ ...wrong, eventId: 'an-event-of-another-log' });
    expect(await new CommandHandler(events, snapshots).load(quotaDecider, stream)).toEqual(
      replayed,
    );
    await snapshots.write({ ...wrong, revision: replayed.revision + 10 });
    expect(await new CommandHandler(events, snapshots).load(quotaDecider, stream)).toEqual(
      replayed,
    );
    // The replay put a snapshot of this log in place of the one ahead of it.
    const [head] = await events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    expect(await snapshots.read(stream)).toMatchObject({
      revision: head!.revision,
      eventId: head!.id,
    });
  });

  it('decides at the revision it loaded: a writer that appended first wins, as without snapshots', async () => {
    const handler = new CommandHandler(events, snapshots);
    await history(handler, 60);
    const { revision } = await handler.load(quotaDecider, stream);
    await handler.handle(quotaDecider, stream, reserve('first'), { commandId: 'first' });
    await expect(
      events.append(stream, [{ id: 'late', type: 'QuotaReleased', data: {} }], {
        expectedRevision: revision,
      }),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    const stale = new CommandHandler(events, snapshots);
    const both = await Promise.allSettled(
      ['a', 'b'].map((id) =>
        stale.handle(quotaDecider, stream, reserve(id), { commandId: id }, { retryOnConflict: 5 }),
      ),
    );
    expect(both.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const { state } = await new CommandHandler(events).load(quotaDecider, stream);
    expect(state.counted.slice(-2).sort()).toEqual(['a', 'b']);
  });
});
