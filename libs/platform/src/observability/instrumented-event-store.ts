import { Logger } from '@nestjs/common';
import {
  passesByItself,
  storageFailureOf,
  type EventStore,
  type NewEvent,
} from '#hawser/eventstore';
import { eventAppendDuration, eventsAppended, secondsSince } from '#hawser/observability';

/** The stream's name up to its first `-`, cut out without splitting the whole id. */
const categoryOf = (streamId: string): string => {
  const end = streamId.indexOf('-');
  return end === -1 ? streamId : streamId.slice(0, end);
};

/** What the user reads about a failure (every `...Failed` event carries its message). */
const reasonOf = (event: NewEvent): string | undefined => {
  const message = (event.data as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : undefined;
};

/** The storage failure of a store's last append, while no append has succeeded since. */
export interface AppendFailure {
  readonly kind: string;
  readonly message: string;
  readonly at: string;
}

const appendFailures = new WeakMap<EventStore, AppendFailure>();

/** Why the last append to `store` (an instrumented store) could not be written, if it could not. */
export const lastAppendFailure = (store: EventStore): AppendFailure | undefined =>
  appendFailures.get(store);

/**
 * The event store with its appends counted and timed, and every failure a share, replica or
 * snapshot records (`ShareCreationFailed`, `ReplicaSchedulingFailed`, ...: what sends it to
 * `error`) logged at warn with its reason and request id.
 */
export const instrumentedEventStore = (store: EventStore): EventStore => {
  const logger = new Logger('events');
  // Made once, not on every call: every command and every follower goes through here.
  const boundMethods = new WeakMap<object, unknown>();
  const append: EventStore['append'] = async (streamId, events, options) => {
    const started = performance.now();
    try {
      const result = await store.append(streamId, events, options);
      eventAppendDuration.observe({ outcome: 'ok' }, secondsSince(started));
      appendFailures.delete(instrumented);
      eventsAppended.inc({ category: categoryOf(streamId) }, events.length);
      for (const event of events) {
        if (!event.type.endsWith('Failed')) continue;
        logger.warn({
          msg: `${streamId}: ${event.type}: ${reasonOf(event) ?? 'no reason given'}`,
          stream: streamId,
          event: event.type,
          reason: reasonOf(event),
          requestId: event.metadata?.requestId,
        });
      }
      return result;
    } catch (error) {
      eventAppendDuration.observe({ outcome: 'error' }, secondsSince(started));
      const kind = storageFailureOf(error);
      if (kind && !passesByItself(kind)) {
        const message = error instanceof Error ? error.message : String(error);
        appendFailures.set(instrumented, { kind, message, at: new Date().toISOString() });
      }
      throw error;
    }
  };
  const instrumented: EventStore = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'append') return append;
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      let bound = boundMethods.get(value);
      if (bound === undefined) {
        bound = value.bind(target);
        boundMethods.set(value, bound);
      }
      return bound;
    },
  });
  return instrumented;
};
