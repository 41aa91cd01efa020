/**
 * A decider: the pure core of an aggregate. `decide` turns a command and the current state into
 * new events (or throws a DomainError); `evolve` folds one event into the state. No I/O, no clock:
 * times and ids arrive inside commands.
 */
export interface Decider<State, Command, Event> {
  readonly initialState: () => State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => readonly Event[];
  /** Set by aggregates whose streams grow long: their state is cached every so many events. */
  readonly snapshots?: SnapshotPolicy<State>;
}

/**
 * How an aggregate's state is cached. The state must be plain JSON data; `stateVersion` names
 * its shape and changes whenever `evolve` would fold the same events into a different shape or
 * content, so that older snapshots are ignored and the stream replayed.
 */
export interface SnapshotPolicy<State = unknown> {
  readonly stateVersion: number;
  /** Events folded beyond the last snapshot before the next one is written. */
  readonly every: number;
  /**
   * A state's heap bytes, roughly, where its size varies: what bounds the states a process keeps
   * in memory. Cheap, since it runs on every fold (without it, the state is walked).
   */
  estimatedBytes?(state: State): number;
}

/** An event as the domain sees it: a string name, a payload. Metadata lives in the store. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
}

export const fold = <State, Event>(
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  events: readonly Event[],
): State => events.reduce(decider.evolve, decider.initialState());

/** Exhaustiveness check for discriminated unions. */
export const assertNever = (value: never): never => {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
};
