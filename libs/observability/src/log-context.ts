import { AsyncLocalStorage } from 'node:async_hooks';

/** What one workflow step did, gathered while it runs, logged once it has. */
export interface StepTrace {
  /** `CommandType stream` of each command decided. */
  readonly commands: string[];
  /** `backend operation` of each driver call. */
  readonly driverOperations: string[];
}

/**
 * Who a piece of work is for: the HTTP request it started from (Manila's request id), the
 * correlation it belongs to and the event or request that caused it. Carried through async
 * calls so log lines, events' metadata and driver calls name the same request.
 */
export interface LogContext {
  readonly requestId?: string;
  readonly correlationId?: string;
  readonly causationId?: string;
  readonly stream?: string;
  readonly step?: StepTrace;
}

const storage = new AsyncLocalStorage<LogContext>();

/** Runs `work` with `context` as the current log context (and every async call it makes). */
export const withLogContext = <T>(context: LogContext, work: () => T): T =>
  storage.run(context, work);

export const currentLogContext = (): LogContext | undefined => storage.getStore();

/** The fields of the current context worth a log line, without the step being gathered. */
export const logContextFields = (): Omit<LogContext, 'step'> => {
  const { step: _step, ...fields } = storage.getStore() ?? {};
  return fields;
};
