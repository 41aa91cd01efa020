import type { RecordedEvent } from '#hawser/eventstore';
import type { Workflow } from './workflow.js';
import { workflowProcessManager } from './workflow-process-manager.js';

/** Counts the events of its stream; answers `Ping` with one `Pong` per event counted so far. */
const counter: Workflow<RecordedEvent, number, { type: 'Pong'; n: number }> = {
  name: 'counter',
  filter: { streamPrefixes: ['order-'] },
  initialState: () => 0,
  evolve: (count) => count + 1,
  readsHistory: (event) => event.type === 'Ping',
  decide: (event, count) =>
    event.type === 'Ping'
      ? Array.from({ length: count }, (_, i) => ({ type: 'Pong', n: i + 1 }))
      : [],
};

const recorded = (type: string, revision: number): RecordedEvent => ({
  id: `e${revision}`,
  type,
  data: {},
  metadata: { schemaVersion: 1, recordedAt: '2026-11-23T10:00:00.000Z' },
  streamId: 'order-1',
  revision,
  position: revision + 1,
});

describe('workflowProcessManager', () => {
  const run = (failOn?: number) => {
    const loaded: string[] = [];
    const dispatched: { n: number; cause: string }[] = [];
    const manager = workflowProcessManager(counter, {
      decode: (event) => event,
      load: async (event) => {
        loaded.push(event.id);
        return event.revision + 1;
      },
      dispatch: async (output, cause) => {
        if (output.n === failOn) throw new Error(`pong ${output.n} failed`);
        dispatched.push({ n: output.n, cause: cause.id });
      },
    });
    return { manager, loaded, dispatched };
  };

  it("takes the workflow's name and filter, so the runner checkpoints it as pm:<name>", () => {
    const { manager } = run();
    expect(manager.name).toBe('counter');
    expect(manager.filter).toEqual({ streamPrefixes: ['order-'] });
  });

  it('given an event whose decision reads history, then it loads the state and dispatches each output in order, naming the cause', async () => {
    const { manager, loaded, dispatched } = run();
    await manager.handle(recorded('Ping', 2));
    expect(loaded).toEqual(['e2']);
    expect(dispatched).toEqual([
      { n: 1, cause: 'e2' },
      { n: 2, cause: 'e2' },
      { n: 3, cause: 'e2' },
    ]);
  });

  it('given an event whose decision reads no history, then nothing is loaded', async () => {
    const { manager, loaded, dispatched } = run();
    await manager.handle(recorded('Other', 5));
    expect(loaded).toEqual([]);
    expect(dispatched).toEqual([]);
  });

  it('given a dispatch that fails, then the event fails (for the runner to retry) and later outputs wait', async () => {
    const { manager, dispatched } = run(2);
    await expect(manager.handle(recorded('Ping', 2))).rejects.toThrow('pong 2 failed');
    expect(dispatched).toEqual([{ n: 1, cause: 'e2' }]);
  });
});
