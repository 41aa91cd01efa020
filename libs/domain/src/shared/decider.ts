/**
 * A decider: the pure core of an aggregate. `decide` turns a command and the current state into
 * new events (or throws a DomainError); `evolve` folds one event into the state. No I/O, no clock:
 * times and ids arrive inside commands.
 */
export interface Decider<State, Command, Event> {
  readonly initialState: () => State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => readonly Event[];
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
