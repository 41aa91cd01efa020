import path from 'node:path';
import { SqliteEventStore } from '#hawser/eventstore';
import { ReadModelChanges } from '#hawser/read-models';
import {
  countingProjection,
  newEvents,
  type StreamCount,
} from '../../../read-models/src/test-support/counting-projection.js';
import {
  startLiveProjections,
  type LiveProjections,
} from '../../../read-models/src/test-support/live-projections.js';
import {
  describeWithNats,
  NatsServer,
} from '../../../../apps/hawser/src/test-support/nats-server.js';
import { NatsProjectorBus } from './projector-bus.js';

/**
 * Waits shorter than the projector's own look at the log for other processes' appends (every
 * second; its log's subscription is told to poll every minute): a wait that passes within it
 * mostly passed because the projector was told of the append.
 */
const SHORTER_THAN_A_POLL_MS = 300;

describeWithNats('read-your-writes from a process that does not project, over NATS', () => {
  let nats: NatsServer;
  let projector: LiveProjections;
  let projectorBus: NatsProjectorBus;
  /** The process that does not project: its own connection to the same log, and its bus. */
  let serving: SqliteEventStore;
  let servingBus: NatsProjectorBus;

  beforeAll(async () => {
    nats = await NatsServer.start();
  });
  afterAll(async () => {
    await nats.stop();
  });

  beforeEach(async () => {
    projector = await startLiveProjections(
      [countingProjection('counts', 'counts')],
      async () => undefined,
      {},
      { pollIntervalMs: 60_000 },
    );
    serving = new SqliteEventStore({ file: path.join(projector.dir, 'events.sqlite') });
    projectorBus = new NatsProjectorBus({ servers: [nats.url], name: 'projector' });
    servingBus = new NatsProjectorBus({ servers: [nats.url], name: 'serving' });
    await projectorBus.open(new ReadModelChanges());
    await servingBus.open(new ReadModelChanges());
  });
  afterEach(async () => {
    await servingBus.close();
    await projectorBus.close();
    await serving.close();
    await projector.close();
  });

  it('given a projector on the bus, when another process appends and waits for its position, then the wait passes and its write is read', async () => {
    await projectorBus.serve(projector.runner, new ReadModelChanges(), []);

    const { position } = await serving.append('thing-1', newEvents(3), {
      expectedRevision: 'no_stream',
    });
    const reached = await servingBus.waitForPosition(position, SHORTER_THAN_A_POLL_MS);

    expect(reached).toBe(true);
    expect(await projector.documents.get<StreamCount>('counts', 'thing-1')).toMatchObject({
      count: 3,
    });
  });

  it('given writes through both processes at once, when each waits for its own, then every wait passes', async () => {
    await projectorBus.serve(projector.runner, new ReadModelChanges(), []);

    const waits = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const store = i % 2 === 0 ? serving : projector.eventStore;
        const bus = i % 2 === 0 ? servingBus : undefined;
        const { position } = await store.append(`thing-${i}`, newEvents(1), {
          expectedRevision: 'no_stream',
        });
        return bus
          ? bus.waitForPosition(position, SHORTER_THAN_A_POLL_MS)
          : projector.runner.waitForPosition(position, SHORTER_THAN_A_POLL_MS);
      }),
    );

    expect(waits).toEqual(Array.from({ length: 20 }, () => true));
  });

  it('given the projector has passed a position already and said so before this process listened, when this process waits for it, then the wait passes', async () => {
    await projectorBus.serve(projector.runner, new ReadModelChanges(), []);
    const { position } = await projector.eventStore.append('thing-1', newEvents(1), {
      expectedRevision: 'no_stream',
    });
    expect(await projector.runner.waitForPosition(position, SHORTER_THAN_A_POLL_MS)).toBe(true);
    const late = new NatsProjectorBus({ servers: [nats.url], name: 'late' });
    await late.open(new ReadModelChanges());

    try {
      expect(await late.waitForPosition(position, SHORTER_THAN_A_POLL_MS)).toBe(true);
    } finally {
      await late.close();
    }
  });

  it('given a wait that began while no process projected, when a projector starts serving, then the wait passes', async () => {
    const { position } = await serving.append('thing-1', newEvents(1), {
      expectedRevision: 'no_stream',
    });
    const waiting = servingBus.waitForPosition(position, 3_000);

    await new Promise((resolve) => setTimeout(resolve, 250));
    await projectorBus.serve(projector.runner, new ReadModelChanges(), []);

    expect(await waiting).toBe(true);
  });

  it('given no process projects, when a process waits for its write, then the wait ends false at its time-out', async () => {
    const { position } = await serving.append('thing-1', newEvents(1), {
      expectedRevision: 'no_stream',
    });

    expect(await servingBus.waitForPosition(position, 200)).toBe(false);
  });
});
