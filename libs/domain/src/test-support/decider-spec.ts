import { fold, type Decider } from '../shared/decider.js';
import { DomainError, type DomainErrorKind } from '../shared/domain-error.js';

/** given(past events).when(command).then(new events) | thenThrows(kind) */
export const deciderSpec = <State, Command, Event>(decider: Decider<State, Command, Event>) => ({
  given: (events: readonly Event[]) => ({
    when: (command: Command) => {
      const decide = () => decider.decide(command, fold(decider, events));
      return {
        then: (expected: readonly Event[]) => expect(decide()).toEqual(expected),
        thenNothing: () => expect(decide()).toEqual([]),
        /** The refusal's kind, and its message: exactly that text, or matching that pattern. */
        thenThrows: (kind: DomainErrorKind, message?: RegExp | string) => {
          let error: unknown;
          try {
            decide();
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).kind).toBe(kind);
          if (typeof message === 'string') expect((error as DomainError).message).toBe(message);
          else if (message) expect((error as DomainError).message).toMatch(message);
        },
      };
    },
  }),
});
