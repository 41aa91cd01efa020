import type { EventFilter, RecordedEvent } from '#hawser/eventstore';
import type { DocumentWrite } from '#hawser/read-models';

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
  /**
   * True when its reaction to an event depends on nothing an event of another stream changes
   * in it: the events of a page are then handled stream by stream, the streams side by side
   * (each stream's still in log order), so that their commands are appended together.
   */
  readonly streamsApart?: boolean;
  /**
   * Reacts to one event. Documents it keeps (an index of its own) are returned rather than
   * written: they are committed with the checkpoint that moves past the event.
   */
  handle(event: RecordedEvent): Promise<readonly DocumentWrite[] | void>;
}
