import type { RecordedEvent } from '../event-store.port.js';

/**
 * The events this store decoded last, by log position, at most `capacity`, the oldest decoded
 * dropped first. A committed position never changes (the log is append-only and AUTOINCREMENT
 * never hands a committed position out again), so the same row read again (by each command
 * that loads a stream after its remembered state, by the log followers' page) is the object
 * decoded before: its JSON is parsed and upcast once. Events are read-only for every reader.
 */
export class DecodedEvents {
  private readonly events = new Map<number, RecordedEvent>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.events.size;
  }

  /** The event decoded at `position`, when it is the one with `eventId`. */
  get(position: number, eventId: string): RecordedEvent | undefined {
    const event = this.events.get(position);
    return event?.id === eventId ? event : undefined;
  }

  add(event: RecordedEvent): void {
    this.events.set(event.position, event);
    if (this.events.size > this.capacity) {
      this.events.delete(this.events.keys().next().value as number);
    }
  }
}
