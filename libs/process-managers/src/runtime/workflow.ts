import type { EventFilter } from '#hawser/eventstore';

/**
 * A saga as two pure functions (the workflow shape): `decide(input, state)` answers an event
 * with what it calls for, as data (commands to send, questions for the scheduler), and
 * `evolve(state, event)` folds the history those decisions read. Loading the history,
 * asking the ports and appending the commands belong to the executor
 * (`workflowProcessManager`), so a workflow is specified by given/when/then unit specs alone.
 */
export interface Workflow<Input, State, Output, History = Input> {
  /** Unique; its checkpoint is stored as `pm:<name>`. */
  readonly name: string;
  /** The events it takes as input. */
  readonly filter: EventFilter;
  /** Its decision on an event depends only on that event's stream (see `ProcessManager`). */
  readonly streamsApart?: boolean;
  readonly initialState: () => State;
  readonly evolve: (state: State, event: History) => State;
  /** Whether deciding on `input` reads the history; when not, `decide` gets `initialState()`. */
  readonly readsHistory: (input: Input) => boolean;
  readonly decide: (input: Input, state: State) => readonly Output[];
}

/** A command as a workflow decides it: everything but the time, which its dispatch stamps. */
export type Unstamped<Command> = Command extends unknown ? Omit<Command, 'now'> : never;
