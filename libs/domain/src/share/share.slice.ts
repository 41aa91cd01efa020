import type { ShareCommand } from './share.commands.js';
import type { ShareEvent } from './share.events.js';
import { activeShareOf, type ActiveShare, type ShareState } from './share.state.js';

/**
 * One topic of the share decider: the commands it decides and the events it folds. The share
 * decider dispatches every command and event through a table of slices (share.slices.ts), so a
 * new topic is a new slice and one line in that table. Methods, so that a slice over its own
 * commands and events fits the table's slot for all of them.
 */
export interface ShareSlice<
  C extends ShareCommand = ShareCommand,
  E extends ShareEvent = ShareEvent,
> {
  readonly commandTypes: readonly C['type'][];
  readonly eventTypes: readonly E['type'][];
  decide(command: C, state: ShareState): ShareEvent[];
  evolve(state: ShareState, event: E): ShareState;
}

/** A topic of a share that exists: its deciding and folding see an ActiveShare. */
export interface ActiveShareSlice<C extends ShareCommand, E extends ShareEvent> {
  readonly commandTypes: readonly C['type'][];
  readonly eventTypes: readonly E['type'][];
  decide(command: C, state: ActiveShare): ShareEvent[];
  evolve(state: ActiveShare, event: E): ShareState;
}

/**
 * Lifts a topic of an existing share into the table: its commands on an absent or deleted share
 * are refused (404), and its events, which the stream of such a share never holds, leave it as
 * it is.
 */
export const activeShareSlice = <C extends ShareCommand, E extends ShareEvent>(
  slice: ActiveShareSlice<C, E>,
): ShareSlice<C, E> => ({
  commandTypes: slice.commandTypes,
  eventTypes: slice.eventTypes,
  decide: (command, state) => slice.decide(command, activeShareOf(state)),
  evolve: (state, event) => (state.kind === 'active' ? slice.evolve(state, event) : state),
});

export interface ShareTable {
  readonly decide: (command: ShareCommand, state: ShareState) => ShareEvent[];
  readonly evolve: (state: ShareState, event: ShareEvent) => ShareState;
}

const indexBy = <T extends string>(
  slices: readonly ShareSlice[],
  typesOf: (slice: ShareSlice) => readonly T[],
  what: string,
): ReadonlyMap<T, ShareSlice> => {
  const index = new Map<T, ShareSlice>();
  for (const slice of slices) {
    for (const type of typesOf(slice)) {
      if (index.has(type)) throw new Error(`${what} ${type} is claimed by two share slices`);
      index.set(type, slice);
    }
  }
  return index;
};

/** One table over the slices: each command and event type belongs to exactly one of them. */
export const composeSlices = (slices: readonly ShareSlice[]): ShareTable => {
  const sliceOfCommand = indexBy(slices, (s) => s.commandTypes, 'command');
  const sliceOfEvent = indexBy(slices, (s) => s.eventTypes, 'event');
  return {
    decide: (command, state) => {
      const slice = sliceOfCommand.get(command.type);
      if (!slice) throw new Error(`no share slice decides ${command.type}`);
      return slice.decide(command, state);
    },
    evolve: (state, event) => {
      const slice = sliceOfEvent.get(event.type);
      if (!slice) throw new Error(`no share slice evolves ${event.type}`);
      return slice.evolve(state, event);
    },
  };
};
