import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteEventStore, type NewEvent, type RecordedEvent } from '#hawser/eventstore';
import { SqliteDocumentStore } from '#hawser/read-models';
import type { ProcessManager } from './process-manager.js';
import {
  ProcessManagerRunner,
  type ProcessManagerRunnerOptions,
} from './process-manager-runner.js';

const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
});

/** Records what it handled; fails on events whose data says how many times to fail. */
function recordingProcessManager(name: string): ProcessManager & {
  handled: RecordedEvent[];
  tries: Map<string, number>;
} {
  return {
    name,
    filter: { streamPrefixes: ['order-'] },
    handled: [],
    tries: new Map(),
    async handle(recorded) {
      const tries = (this.tries.get(recorded.id) ?? 0) + 1;
      this.tries.set(recorded.id, tries);
      const { failTimes = 0 } = recorded.data as { failTimes?: number };
      if (tries <= failTimes) throw new Error(`failure ${tries} of ${recorded.type}`);
      this.handled.push(recorded);
    },
  };
}

describe('ProcessManagerRunner', () => {
  let dir: string;
  let events: SqliteEventStore;
  let documents: SqliteDocumentStore;
  let runners: ProcessManagerRunner[];

  const runnerFor = (managers: ProcessManager[], options: ProcessManagerRunnerOptions = {}) => {
    const runner = new ProcessManagerRunner(events, documents, managers, {
      retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
      ...options,
    });
    runners.push(runner);
    return runner;
  };
  const settled = async (runner: ProcessManagerRunner) =>
    expect(await runner.waitForPosition(await events.headPosition(), 5_000)).toBe(true);
  const types = (handled: RecordedEvent[]) => handled.map((recorded) => recorded.type);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
    events = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    documents = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
    runners = [];
  });
  afterEach(async () => {
    for (const runner of runners) await runner.stop();
    await documents.close();
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given events on several streams, then it handles the matching ones in log order and stores its checkpoint', async () => {
    await events.append('order-1', [event('A1'), event('A2')], { expectedRevision: 'no_stream' });
    await events.append('other-1', [event('Skipped')], { expectedRevision: 'no_stream' });
    await events.append('order-2', [event('B1')], { expectedRevision: 'no_stream' });
    await events.append('order-1', [event('A3')], { expectedRevision: 1 });
    const manager = recordingProcessManager('orders');
    const runner = runnerFor([manager]);

    await runner.start();
    await settled(runner);

    expect(types(manager.handled)).toEqual(['A1', 'A2', 'B1', 'A3']);
    expect(await documents.readCheckpoint('pm:orders')).toBe(manager.handled[3]?.position);
  });

  it('given a runner that stopped, when another starts, then it handles only what came after', async () => {
    await events.append('order-1', [event('A1'), event('A2')], { expectedRevision: 'no_stream' });
    const first = recordingProcessManager('orders');
    const runner = runnerFor([first]);
    await runner.start();
    await settled(runner);
    await runner.stop();
    await events.append('order-1', [event('A3')], { expectedRevision: 1 });

    const second = recordingProcessManager('orders');
    const restarted = runnerFor([second]);
    await restarted.start();
    await settled(restarted);

    expect(types(first.handled)).toEqual(['A1', 'A2']);
    expect(types(second.handled)).toEqual(['A3']);
  });

  it('given a live runner, when an event is appended, then it is handled and waitForPosition says so', async () => {
    const manager = recordingProcessManager('orders');
    const runner = runnerFor([manager]);
    await runner.start();

    const { position } = await events.append('order-9', [event('Live')], {
      expectedRevision: 'no_stream',
    });

    expect(await runner.waitForPosition(position, 2_000)).toBe(true);
    expect(types(manager.handled)).toEqual(['Live']);
    expect(await runner.waitForPosition(position + 100, 30)).toBe(false);
  });

  it('given a handler that fails twice, then it is retried with back-off and succeeds, before later events', async () => {
    await events.append('order-1', [event('Flaky', { failTimes: 2 }), event('After')], {
      expectedRevision: 'no_stream',
    });
    const manager = recordingProcessManager('orders');
    const runner = runnerFor([manager], {
      retry: { attempts: 3, baseDelayMs: 20, maxDelayMs: 100 },
    });
    const started = performance.now();

    await runner.start();
    await settled(runner);

    expect(types(manager.handled)).toEqual(['Flaky', 'After']);
    expect(manager.tries.get(manager.handled[0]?.id ?? '')).toBe(3);
    // Back-off of 20 ms then 40 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(await runner.listParked()).toEqual([]);
  });

  it('given an event that keeps failing, then it is parked after the last try and later events still flow', async () => {
    const { position } = await events.append(
      'order-1',
      [event('Poison', { failTimes: 99 }), event('After')],
      { expectedRevision: 'no_stream' },
    );
    await events.append('order-2', [event('Later')], { expectedRevision: 'no_stream' });
    const manager = recordingProcessManager('orders');
    const runner = runnerFor([manager]);

    await runner.start();
    await settled(runner);

    expect(types(manager.handled)).toEqual(['After', 'Later']);
    const parked = await runner.listParked();
    expect(parked).toEqual([
      expect.objectContaining({
        processManager: 'orders',
        eventType: 'Poison',
        streamId: 'order-1',
        revision: 0,
        position: position - 1,
        error: 'failure 3 of Poison',
        attempts: 3,
      }),
    ]);
    expect(Date.parse(parked[0]?.parkedAt ?? '')).not.toBeNaN();
  });

  it('given a parked event, retryParked handles it once: kept with one more attempt on failure, removed on success', async () => {
    await events.append('order-1', [event('Poison', { failTimes: 4 })], {
      expectedRevision: 'no_stream',
    });
    const manager = recordingProcessManager('orders');
    const runner = runnerFor([manager]);
    await runner.start();
    await settled(runner);
    const [parked] = await runner.listParked();

    expect(await runner.retryParked(parked?.id ?? '')).toBe(false);
    expect(await runner.listParked()).toEqual([
      expect.objectContaining({ attempts: 4, error: 'failure 4 of Poison' }),
    ]);
    expect(await runner.retryParked(parked?.id ?? '')).toBe(true);

    expect(types(manager.handled)).toEqual(['Poison']);
    expect(await runner.listParked()).toEqual([]);
    await expect(runner.retryParked(parked?.id ?? '')).rejects.toThrow(/no parked event/);
  });

  it('runs several process managers independently: one parking does not hold up the other', async () => {
    await events.append('order-1', [event('Poison', { failTimes: 99 }), event('After')], {
      expectedRevision: 'no_stream',
    });
    const picky = recordingProcessManager('picky');
    const other: ProcessManager & { seen: string[] } = {
      name: 'other',
      seen: [],
      async handle(recorded) {
        this.seen.push(recorded.type);
      },
    };
    const runner = runnerFor([picky, other]);

    await runner.start();
    await settled(runner);

    expect(other.seen).toEqual(['Poison', 'After']);
    expect(types(picky.handled)).toEqual(['After']);
    expect((await runner.listParked()).map((p) => p.processManager)).toEqual(['picky']);
  });

  it('given an event in back-off, when stopped, then it stops at once and the event is handled again next time', async () => {
    await events.append('order-1', [event('Flaky', { failTimes: 1 })], {
      expectedRevision: 'no_stream',
    });
    const manager = recordingProcessManager('orders');
    const runner = runnerFor([manager], { retry: { attempts: 3, baseDelayMs: 60_000 } });
    await runner.start();
    while (manager.tries.size === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    const stopping = performance.now();
    await runner.stop();

    expect(performance.now() - stopping).toBeLessThan(1_000);
    expect(await documents.readCheckpoint('pm:orders')).toBeUndefined();
    const restarted = runnerFor([manager], { retry: { attempts: 3, baseDelayMs: 1 } });
    await restarted.start();
    await settled(restarted);
    expect(types(manager.handled)).toEqual(['Flaky']);
  });
  it('given a page of events, then the checkpoint is stored once past the page, not once an event', async () => {
    for (let i = 0; i < 5; i++) {
      await events.append(`order-${i}`, [event('Placed')], { expectedRevision: 'no_stream' });
    }
    const manager = recordingProcessManager('orders');
    const checkpoints: number[] = [];
    const commit = documents.commit.bind(documents);
    documents.commit = async (writes, checkpoint) => {
      checkpoints.push(checkpoint.position);
      await commit(writes, checkpoint);
    };
    const runner = runnerFor([manager]);

    await runner.start();
    await settled(runner);

    expect(types(manager.handled)).toEqual(Array(5).fill('Placed'));
    expect(checkpoints).toEqual([5]);
    expect(await documents.readCheckpoint('pm:orders')).toBe(5);
  });

  it('given a process manager whose streams are apart, when one stream is in back-off, then the other streams are handled meanwhile, each in its order', async () => {
    await events.append('order-1', [event('Flaky', { failTimes: 1 }), event('Later')], {
      expectedRevision: 'no_stream',
    });
    await events.append('order-2', [event('Other'), event('OtherLater')], {
      expectedRevision: 'no_stream',
    });
    const manager = { ...recordingProcessManager('orders'), streamsApart: true };
    const runner = runnerFor([manager], { retry: { attempts: 3, baseDelayMs: 50 } });

    await runner.start();
    await settled(runner);

    expect(types(manager.handled)).toEqual(['Other', 'OtherLater', 'Flaky', 'Later']);
    expect(await documents.readCheckpoint('pm:orders')).toBe(4);
  });

  it('given streams apart and a stop while one stream is in back-off, then the checkpoint stays before that event and it is handled next time', async () => {
    await events.append('order-1', [event('Other')], { expectedRevision: 'no_stream' });
    await events.append('order-2', [event('Flaky', { failTimes: 1 })], {
      expectedRevision: 'no_stream',
    });
    await events.append('order-3', [event('After')], { expectedRevision: 'no_stream' });
    const manager = { ...recordingProcessManager('orders'), streamsApart: true };
    const runner = runnerFor([manager], { retry: { attempts: 3, baseDelayMs: 60_000 } });
    await runner.start();
    while (manager.handled.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));

    await runner.stop();

    expect(types(manager.handled).sort()).toEqual(['After', 'Other']);
    expect(await documents.readCheckpoint('pm:orders')).toBe(1);
    const restarted = runnerFor([manager], { retry: { attempts: 3, baseDelayMs: 1 } });
    await restarted.start();
    await settled(restarted);
    expect(types(manager.handled)).toContain('Flaky');
  });
  it('given reactions that return documents, then they are committed in the commit of the checkpoint past their events', async () => {
    await events.append('order-1', [event('Placed'), event('Shipped')], {
      expectedRevision: 'no_stream',
    });
    const indexing: ProcessManager = {
      name: 'index',
      filter: { streamPrefixes: ['order-'] },
      handle: async (recorded) => [
        { kind: 'put', collection: 'order_index', document: { id: recorded.type } },
      ],
    };
    const commits: { documents: string[]; position: number }[] = [];
    const commit = documents.commit.bind(documents);
    documents.commit = async (writes, checkpoint) => {
      const ids = writes.map((write) => (write.kind === 'put' ? write.document.id : write.id));
      commits.push({ documents: ids, position: checkpoint.position });
      await commit(writes, checkpoint);
    };
    const runner = runnerFor([indexing]);

    await runner.start();
    await settled(runner);

    expect(commits).toEqual([{ documents: ['Placed', 'Shipped'], position: 2 }]);
    expect((await documents.find('order_index')).map((doc) => doc.id).sort()).toEqual([
      'Placed',
      'Shipped',
    ]);
  });
});
