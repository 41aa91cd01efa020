import type { EventFilter, RecordedEvent } from '#hawser/eventstore';

/**
 * A durable reaction to events (a saga): it sees each matching event once, in log order, after
 * a restart too. `handle` emits commands whose ids derive from the event (`derivedId`), so
 * handling an event again after a crash repeats nothing. A throw means "try again later".
 */
export interface ProcessManager {
  /** Unique; its checkpoint is stored as `pm:<name>`. */
  readonly name: string;
  /** Which events it reacts to; all events when absent. */
  readonly filter?: EventFilter;
  handle(event: RecordedEvent): Promise<void>;
}
