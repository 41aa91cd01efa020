import type { EventFilter, RecordedEvent } from '#hawser/eventstore';
import type { DocumentWrite } from '#hawser/read-models';

/**
 * A durable reaction to events (a saga): it sees each matching event once, in log order (per
 * stream when `streamsApart`), after a restart too. `handle` emits commands whose ids derive
 * from the event (`derivedId`), so handling an event again after a crash repeats nothing. A
 * throw means "try again later".
 */
export interface ProcessManager {
  /** Unique; its checkpoint is stored as `pm:<name>`. */
  readonly name: string;
  /** Which events it reacts to; all events when absent. */
  readonly filter?: EventFilter;
  /**
   * True when its reaction to an event needs no event of another stream handled before it: the
   * events of a page are then handled stream by stream, the streams side by side (each stream's
   * still in log order), so that their commands are appended together. What such reactions
   * share must not depend on order (a scheduler's pool debits are idempotent and add up; its
   * choices within a page may see one another's debits in another order than the log's, as two
   * schedulers would, and the node still checks the pool's room).
   */
  readonly streamsApart?: boolean;
  /**
   * Reacts to one event. Documents it keeps (an index of its own) are returned rather than
   * written: they are committed with the checkpoint that moves past the event.
   */
  handle(event: RecordedEvent): Promise<readonly DocumentWrite[] | void>;
}
