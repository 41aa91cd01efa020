import type { CommandHandler } from '#hawser/application';
import type { DomainEvent } from '#hawser/domain';
import type { EventStore, RecordedEvent } from '#hawser/eventstore';
import type { Workflow } from './workflow.js';

type Folding<State, History> = Pick<
  Workflow<unknown, State, unknown, History>,
  'initialState' | 'evolve'
>;

/** The input's stream as it is now, folded: what other reactions recorded since counts. */
export const streamNow =
  <State, History extends DomainEvent>(
    commands: Pick<CommandHandler, 'load'>,
    workflow: Folding<State, History>,
  ) =>
  async (input: Pick<RecordedEvent, 'streamId'>): Promise<State> =>
    (await commands.load(workflow, input.streamId)).state;

/** The input's stream up to the input itself, each event decoded, folded. */
export const historyUpTo =
  <State, History>(
    events: Pick<EventStore, 'readStream'>,
    decode: (recorded: RecordedEvent) => History,
    workflow: Folding<State, History>,
  ) =>
  async (input: Pick<RecordedEvent, 'streamId' | 'revision'>): Promise<State> =>
    (await events.readStream(input.streamId, { maxCount: input.revision + 1 }))
      .map(decode)
      .reduce(workflow.evolve, workflow.initialState());
