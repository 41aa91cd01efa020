import { storageFailureOf, type RecordedEvent, type StorageFailureKind } from '#hawser/eventstore';

/** The document collection of events that kept failing. */
export const PARKED_EVENTS = 'parked_events';

/** An event a process manager gave up on; the checkpoint moved past it. */
export interface ParkedEvent {
  /** `<process manager>:<event id>`. */
  id: string;
  processManager: string;
  eventId: string;
  eventType: string;
  streamId: string;
  revision: number;
  position: number;
  /** Message of the last failure. */
  error: string;
  /**
   * Set when the last failure was the store's (a full disk, a read-only file system): the
   * runner retries such an event by itself until it goes through.
   */
  storageFailure?: StorageFailureKind;
  /** Tries so far, retries from `retryParked` included. */
  attempts: number;
  /** ISO-8601 time of the last failure. */
  parkedAt: string;
}

/** An error's message, also for an error made in another realm (a native module's). */
export const failureMessage = (error: unknown): string => {
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' ? message : String(error);
};

export function parkedEvent(
  processManager: string,
  event: RecordedEvent,
  error: unknown,
  attempts: number,
): ParkedEvent {
  const storageFailure = storageFailureOf(error);
  return {
    id: `${processManager}:${event.id}`,
    processManager,
    eventId: event.id,
    eventType: event.type,
    streamId: event.streamId,
    revision: event.revision,
    position: event.position,
    error: failureMessage(error),
    ...(storageFailure && { storageFailure }),
    attempts,
    parkedAt: new Date().toISOString(),
  };
}
