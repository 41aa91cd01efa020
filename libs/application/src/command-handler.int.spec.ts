import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  capabilitiesOf,
  requestHolding,
  shareDecider,
  shareStream,
  type Decider,
  type ShareCommand,
  type ShareEvent,
} from '#hawser/domain';
import {
  SqliteEventStore,
  WrongExpectedRevisionError,
  type EventStore,
  type ReadStreamOptions,
  type RecordedEvent,
} from '#hawser/eventstore';
import { withLogContext } from '#hawser/observability';
import { CommandHandler } from './command-handler.js';

/**
 * The real store, with the first `parties` reads held until all of them have read, so those
 * commands decide on the same revision. Later reads (retries) pass straight through.
 */
class ReadBarrier {
  private waiting: Array<() => void> = [];
  private opened = false;
  constructor(
    readonly store: EventStore,
    private readonly parties: number,
  ) {}

  asStore(): EventStore {
    return new Proxy(this.store, {
      get: (target, prop, receiver) =>
        prop === 'readStream'
          ? async (streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> => {
              const events = await target.readStream(streamId, options);
              if (this.opened) return events;
              await new Promise<void>((release) => {
                this.waiting.push(release);
                if (this.waiting.length >= this.parties) {
                  this.opened = true;
                  this.waiting.forEach((r) => r());
                  this.waiting = [];
                }
              });
              return events;
            }
          : Reflect.get(target, prop, receiver),
    });
  }
}

/** The real store, with the options of every stream read noted in `reads`. */
const readsNotedIn = (store: EventStore, reads: (ReadStreamOptions | undefined)[]): EventStore =>
  new Proxy(store, {
    get: (target, prop, receiver) =>
      prop === 'readStream'
        ? (streamId: string, options?: ReadStreamOptions) => {
            reads.push(options);
            return target.readStream(streamId, options);
          }
        : Reflect.get(target, prop, receiver),
  });

const now = '2026-11-22T10:00:00.000Z';
const request: ShareCommand = {
  type: 'RequestShare',
  shareId: 's1',
  instanceId: 'i1',
  projectId: 'p1',
  userId: 'u1',
  name: 'a',
  description: null,
  size: 1,
  shareProto: 'NFS',
  shareType: { id: 't1', name: 'default', extraSpecs: {} },
  capabilities: capabilitiesOf({}),
  availabilityZone: null,
  metadata: {},
  isPublic: false,
  snapshotId: null,
  schedulerHints: null,
  createdAt: now,
};

type ShareState = ReturnType<typeof shareDecider.initialState>;

/** A rename once the stream holds `atLeast` events: before, refused (`refused`) or nothing. */
interface RenameOnceAtLeast {
  readonly name: string;
  readonly atLeast: number;
  readonly refused: boolean;
}

/** The share decider, counting the events it folded, and deciding `RenameOnceAtLeast` too. */
const countingShares: Decider<
  { share: ShareState; count: number },
  ShareCommand | RenameOnceAtLeast,
  ShareEvent
> = {
  initialState: () => ({ share: shareDecider.initialState(), count: 0 }),
  evolve: ({ share, count }, event) => ({
    share: shareDecider.evolve(share, event),
    count: count + 1,
  }),
  decide: (command, { share, count }) => {
    if ('type' in command) return shareDecider.decide(command, share);
    const { name, atLeast, refused } = command;
    if (count >= atLeast) return shareDecider.decide({ type: 'UpdateShare', name, now }, share);
    if (refused) throw new Error(`refused at ${count} events`);
    return [];
  },
};

describe('command handling under concurrency (real SQLite log)', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-commands-'));
    store = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A handler, its stream reads noted, that created share s1 through `decider` and so remembers
   * its state; then another writer's commands on s1 (with their ids), which that state misses.
   */
  const rememberedThenOvertaken = async <State>(
    decider: Decider<State, ShareCommand, ShareEvent>,
    byAnother: readonly (readonly [ShareCommand, string])[],
  ) => {
    const reads: (ReadStreamOptions | undefined)[] = [];
    const handler = new CommandHandler(readsNotedIn(store, reads));
    await handler.handle(decider, shareStream('s1'), request, { commandId: 'c0' });
    const other = new CommandHandler(store);
    for (const [command, commandId] of byAnother) {
      await other.handle(shareDecider, shareStream('s1'), command, { commandId });
    }
    reads.length = 0;
    return { handler, reads };
  };

  it('given one share, when two commands are decided on the same revision, then exactly one is appended', async () => {
    await new CommandHandler(store).handle(shareDecider, shareStream('s1'), request, {
      commandId: 'c0',
    });
    const barrier = new ReadBarrier(store, 2);
    const handler = new CommandHandler(barrier.asStore());
    const rename = (name: string, commandId: string) =>
      handler.handle(
        shareDecider,
        shareStream('s1'),
        { type: 'UpdateShare', name, now },
        { commandId },
      );

    const results = await Promise.allSettled([rename('first', 'c1'), rename('second', 'c2')]);

    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.reason).toBeInstanceOf(WrongExpectedRevisionError);
    const events = await store.readStream(shareStream('s1'));
    expect(events.map((e) => e.type)).toEqual(['ShareRequested', 'ShareUpdated']);
  });

  it("given a conflict with another process's command, when a process manager retries, then it re-decides on the new revision", async () => {
    await new CommandHandler(store).handle(shareDecider, shareStream('s1'), request, {
      commandId: 'c0',
    });
    // A handler of its own for each command, as in two processes (one handler's commands take
    // turns on a stream, so they would never meet as a conflict).
    const barrier = new ReadBarrier(store, 2);
    const change = (key: string, commandId: string) =>
      new CommandHandler(barrier.asStore()).handle(
        shareDecider,
        shareStream('s1'),
        { type: 'ChangeShareMetadata', set: { [key]: 'v' }, unset: [], now },
        { commandId },
        { retryOnConflict: 1 },
      );
    const results = await Promise.allSettled([change('a', 'c1'), change('b', 'c2')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const events = await store.readStream(shareStream('s1'));
    expect(events.map((e) => e.type)).toEqual([
      'ShareRequested',
      'ShareMetadataChanged',
      'ShareMetadataChanged',
    ]);
  });

  it('given many retrying commands on one stream at once, when one process handles them, then each is decided on the state the one before it appended, and no append fails', async () => {
    const handler = new CommandHandler(store);
    await handler.handle(shareDecider, shareStream('s1'), request, { commandId: 'c0' });
    const attempts: string[] = [];
    const counted = new CommandHandler(
      new Proxy(store, {
        get: (target, prop, receiver) =>
          prop === 'append'
            ? async (...args: Parameters<EventStore['append']>) => {
                try {
                  const appended = await target.append(...args);
                  attempts.push('appended');
                  return appended;
                } catch (error) {
                  attempts.push(
                    error instanceof WrongExpectedRevisionError ? 'conflict' : 'failed',
                  );
                  throw error;
                }
              }
            : Reflect.get(target, prop, receiver),
      }),
    );
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);

    const results = await Promise.all(
      keys.map((key, i) =>
        counted.handle(
          shareDecider,
          shareStream('s1'),
          { type: 'ChangeShareMetadata', set: { [key]: 'v' }, unset: [], now },
          { commandId: `c${i + 1}` },
          { retryOnConflict: 1 },
        ),
      ),
    );

    expect(attempts).toEqual(keys.map(() => 'appended'));
    expect(results.map((result) => result.revision)).toEqual(keys.map((_, i) => i + 1));
    expect(results[results.length - 1]?.state).toMatchObject({
      metadata: Object.fromEntries(keys.map((key) => [key, 'v'])),
    });
  });

  it('given two requests whose retrying commands on one stream take turns, when the second waits, then each event names its own request', async () => {
    const handler = new CommandHandler(store);
    await handler.handle(shareDecider, shareStream('s1'), request, { commandId: 'c0' });
    const change = (key: string, requestId: string) =>
      withLogContext({ requestId }, () =>
        handler.handle(
          shareDecider,
          shareStream('s1'),
          { type: 'ChangeShareMetadata', set: { [key]: 'v' }, unset: [], now },
          { commandId: `c-${requestId}` },
          { retryOnConflict: 1 },
        ),
      );

    await Promise.all([change('a', 'r1'), change('b', 'r2')]);

    const changes = (await store.readStream(shareStream('s1'))).slice(1);
    expect(changes.map((event) => [event.metadata.commandId, event.metadata.requestId])).toEqual([
      ['c-r1', 'r1'],
      ['c-r2', 'r2'],
    ]);
  });

  it('given a retried command id, when it is handled again, then nothing is appended twice', async () => {
    const handler = new CommandHandler(store);
    await handler.handle(shareDecider, shareStream('s1'), request, { commandId: 'c0' });
    const first = await handler.handle(
      shareDecider,
      shareStream('s1'),
      {
        type: 'ScheduleShareInstance',
        instanceId: 'i1',
        host: 'h@b#p',
        availabilityZone: 'az',
        now,
      },
      { commandId: 'c-schedule' },
    );
    const replay = await handler.handle(
      shareDecider,
      shareStream('s1'),
      {
        type: 'ScheduleShareInstance',
        instanceId: 'i1',
        host: 'h@b#p',
        availabilityZone: 'az',
        now,
      },
      { commandId: 'c-schedule' },
    );
    expect(first.events).toHaveLength(1);
    expect(replay.events).toHaveLength(0);
    expect((await store.readStream(shareStream('s1'))).length).toBe(2);
  });
  it('given a stream it folded, when another writer appends, then a load reads only the events after the state it remembers', async () => {
    const reads: (ReadStreamOptions | undefined)[] = [];
    const counting = readsNotedIn(store, reads);
    const handler = new CommandHandler(counting);
    await handler.handle(shareDecider, shareStream('s1'), request, { commandId: 'c0' });
    await new CommandHandler(store).handle(
      shareDecider,
      shareStream('s1'),
      { type: 'UpdateShare', name: 'renamed', now },
      { commandId: 'c1' },
    );
    reads.length = 0;

    const loaded = await handler.load(shareDecider, shareStream('s1'));

    expect(reads).toEqual([{ fromRevision: 0 }]);
    expect(loaded.revision).toBe(1);
    expect(loaded.state).toMatchObject({ name: 'renamed' });
  });
  it('given a state folded by a decider wrapping the share decider, when the share decider loads it, then it reads only the events after it; another fold reads the whole stream', async () => {
    const reads: (ReadStreamOptions | undefined)[] = [];
    const counting = readsNotedIn(store, reads);
    const handler = new CommandHandler(counting);
    await handler.handle(requestHolding('reservation-1'), shareStream('s1'), request, {
      commandId: 'c0',
    });
    reads.length = 0;

    const loaded = await handler.load(shareDecider, shareStream('s1'));
    const counted = await handler.load(
      { initialState: () => 0, evolve: (count: number) => count + 1 },
      shareStream('s1'),
    );

    expect(reads).toEqual([{ fromRevision: 0 }, undefined]);
    expect(loaded.revision).toBe(0);
    expect(loaded.state).toMatchObject({ name: 'a' });
    expect(counted).toEqual({ state: 1, revision: 0 });
  });
  it('given a stream it folded, when a retrying command is handled, then it is decided on the state remembered, unread', async () => {
    const reads: (ReadStreamOptions | undefined)[] = [];
    const handler = new CommandHandler(readsNotedIn(store, reads));
    await handler.handle(countingShares, shareStream('s1'), request, { commandId: 'c0' });
    reads.length = 0;

    const renamed = await handler.handle(
      countingShares,
      shareStream('s1'),
      { name: 'b', atLeast: 1, refused: true },
      { commandId: 'c1' },
      { retryOnConflict: 1 },
    );

    expect(reads).toEqual([]);
    expect(renamed.revision).toBe(1);
    expect(renamed.state.share).toMatchObject({ name: 'b' });
  });

  it.each([
    ['refused', true],
    ['a no-op', false],
  ])(
    'given a state remembered before another writer appended, when a retrying command is %s on it, then it is decided again on the stream as read',
    async (_, refused) => {
      const { handler, reads } = await rememberedThenOvertaken(countingShares, [
        [{ type: 'UpdateShare', name: 'by another', now }, 'c1'],
      ]);

      const renamed = await handler.handle(
        countingShares,
        shareStream('s1'),
        { name: 'b', atLeast: 2, refused },
        { commandId: 'c2' },
        { retryOnConflict: 1 },
      );

      expect(reads).toEqual([{ fromRevision: 0 }]);
      expect(renamed.revision).toBe(2);
      expect(renamed.state).toMatchObject({ count: 3, share: { name: 'b' } });
    },
  );

  it('given a state remembered before another writer appended, when a retrying command is decided on it, then its append fails and it is decided on the stream as read', async () => {
    const { handler, reads } = await rememberedThenOvertaken(shareDecider, [
      [{ type: 'ChangeShareMetadata', set: { by: 'another' }, unset: [], now }, 'c1'],
    ]);

    const renamed = await handler.handle(
      shareDecider,
      shareStream('s1'),
      { type: 'UpdateShare', name: 'b', now },
      { commandId: 'c2' },
      { retryOnConflict: 1 },
    );

    expect(reads).toEqual([{ fromRevision: 0 }]);
    expect(renamed.revision).toBe(2);
    expect(renamed.state).toMatchObject({ name: 'b', metadata: { by: 'another' } });
    expect((await store.readStream(shareStream('s1'))).map((e) => e.type)).toEqual([
      'ShareRequested',
      'ShareMetadataChanged',
      'ShareUpdated',
    ]);
  });

  it('given a state remembered before another process appended the same command, when it is handled again, then its result is the stream as read', async () => {
    const change: ShareCommand = {
      type: 'ChangeShareMetadata',
      set: { by: 'either' },
      unset: [],
      now,
    };
    const { handler } = await rememberedThenOvertaken(shareDecider, [
      [{ type: 'UpdateShare', name: 'z', now }, 'c1'],
      [change, 'c2'],
    ]);

    const again = await handler.handle(
      shareDecider,
      shareStream('s1'),
      change,
      { commandId: 'c2' },
      { retryOnConflict: 1 },
    );

    expect(again.revision).toBe(2);
    expect(again.state).toMatchObject({ name: 'z', metadata: { by: 'either' } });
    expect(await store.readStream(shareStream('s1'))).toHaveLength(3);
  });

  it('given a new stream, when a command on it is decided and handled, then its stream is not read', async () => {
    const reads: (ReadStreamOptions | undefined)[] = [];
    const handler = new CommandHandler(readsNotedIn(store, reads));

    const decided = await handler.decideOnly(shareDecider, shareStream('s1'), request, {
      newStream: true,
    });
    const handled = await handler.handle(
      shareDecider,
      shareStream('s1'),
      request,
      { commandId: 'c0' },
      { newStream: true },
    );

    expect(reads).toEqual([]);
    expect(decided.map((e) => e.type)).toEqual(['ShareRequested']);
    expect(handled.revision).toBe(0);
    expect((await store.readStream(shareStream('s1'))).map((e) => e.type)).toEqual([
      'ShareRequested',
    ]);
  });
  it('given a stream said to be new that exists, when the command is handled, then the append fails, or a retry decides on the stream as read', async () => {
    const handler = new CommandHandler(store);
    await handler.handle(shareDecider, shareStream('s1'), request, { commandId: 'c0' });

    const once = handler.handle(
      shareDecider,
      shareStream('s1'),
      request,
      { commandId: 'c1' },
      { newStream: true },
    );
    const retried = handler.handle(
      shareDecider,
      shareStream('s1'),
      request,
      { commandId: 'c2' },
      { newStream: true, retryOnConflict: 1 },
    );

    await expect(once).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    await expect(retried).rejects.toThrow('Share s1 exists already.');
    expect(await store.readStream(shareStream('s1'))).toHaveLength(1);
  });
});
