import { Logger } from '@nestjs/common';
import type { ShareDriver } from '#hawser/drivers';
import { currentLogContext, driverOperationDuration, secondsSince } from '#hawser/observability';

/** Calls that are not operations on storage: set-up, shut-down and a description. */
const NOT_OPERATIONS: ReadonlySet<PropertyKey> = new Set(['initialize', 'close', 'networkExports']);
/** Called every report interval per back end: a line each would drown the rest at `info`. */
const PERIODIC: ReadonlySet<string> = new Set(['get_pool_stats']);

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const commandIdOf = (request: unknown): string | undefined => {
  const id = (request as { commandId?: unknown } | undefined)?.commandId;
  return typeof id === 'string' ? id : undefined;
};

/**
 * A driver whose every operation is timed, counted by back end, operation and outcome, and
 * logged with the request and command it serves, so a request id leads to its driver calls.
 */
export const instrumentedDriver = (driver: ShareDriver): ShareDriver => {
  const logger = new Logger('driver');
  return new Proxy(driver, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (NOT_OPERATIONS.has(property)) return value.bind(target);
      const operation = snakeCase(String(property));
      return async (...args: unknown[]) => {
        const started = performance.now();
        currentLogContext()?.step?.driverOperations.push(`${driver.backend} ${operation}`);
        let outcome = 'ok';
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (error) {
          outcome = 'error';
          throw error;
        } finally {
          const seconds = secondsSince(started);
          driverOperationDuration.observe({ backend: driver.backend, operation, outcome }, seconds);
          const line = {
            msg: `driver ${operation} on ${driver.backend}: ${outcome}`,
            backend: driver.backend,
            operation,
            outcome,
            durationMs: Math.round(seconds * 1000),
            commandId: commandIdOf(args[0]),
          };
          if (PERIODIC.has(operation) && outcome === 'ok') logger.debug(line);
          else logger.log(line);
        }
      };
    },
  });
};
