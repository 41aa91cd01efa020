import { ConfigurationError, CONFIGURATION_EXIT_CODE } from '../config/configuration-error.js';
import { loadConfig } from '../config/hawser-config.js';
import { boundHeapGrowth } from './heap-growth.js';
import { StartupRefusal } from './startup-refusal.js';

/** The exit status of a process ended by a fault nothing handled (sysexits' EX_SOFTWARE). */
export const UNHANDLED_ERROR_EXIT_CODE = 70;

interface Closable {
  close(): Promise<void>;
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * An unhandled rejection or exception anywhere is a fault: it is logged, with its stack, and
 * ends the process with status 70 rather than leaving it running in an unknown state.
 */
export const exitOnUnhandledErrors = (processName: string): void => {
  const fail = (kind: string) => (error: unknown) => {
    console.error(`${processName} stopping: ${kind}: ${messageOf(error)}`);
    if (error instanceof Error && error.stack) console.error(error.stack);
    process.exit(UNHANDLED_ERROR_EXIT_CODE);
  };
  process.on('unhandledRejection', fail('unhandled rejection'));
  process.on('uncaughtException', fail('uncaught exception'));
};

/**
 * Ends the process because it cannot start: a configuration error (status 78) or a known
 * refusal (status 1) in one line; anything else is unexpected and keeps its stack.
 */
export const refuseStart = (processName: string, error: unknown): never => {
  console.error(`${processName} cannot start: ${messageOf(error)}`);
  if (error instanceof ConfigurationError) process.exit(CONFIGURATION_EXIT_CODE);
  if (!(error instanceof StartupRefusal) && error instanceof Error && error.stack) {
    console.error(error.stack);
  }
  process.exit(1);
};

/**
 * SIGTERM and SIGINT stop the service cleanly (work in hand finishes, stores close) and exit 0.
 * A second signal while stopping is ignored: Ctrl-C reaches npm and the service alike.
 */
export const stopOnSignals = (processName: string, app: Closable): void => {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${processName} stopping (${signal})`);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`${processName} did not stop cleanly: ${messageOf(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
};

/**
 * Runs a service process: unhandled errors end it, its heap growth is bounded as configured,
 * `start` builds and starts it (a refusal ends the process in one line), then signals stop it.
 */
export const runService = async <T extends Closable>(
  processName: string,
  start: () => Promise<T>,
): Promise<T> => {
  exitOnUnhandledErrors(processName);
  let app: T;
  try {
    boundHeapGrowth(loadConfig().heapGrowthPercent);
    app = await start();
  } catch (error) {
    return refuseStart(processName, error);
  }
  stopOnSignals(processName, app);
  return app;
};
