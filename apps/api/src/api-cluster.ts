import cluster, { type Worker } from 'node:cluster';
import {
  ConfigurationError,
  exitOnUnhandledErrors,
  preflight,
  refuseStart,
  type HawserConfig,
} from '#hawser/platform';

/** A worker that dies this soon after its start is not restarted again and again. */
const RESTART_DELAY_MS = 500;

/**
 * The API as several processes on one port, with node's cluster module: this primary forks
 * HAWSER_API_PROCESSES workers, each a whole API process, and the kernel's listening socket,
 * held here, hands each new connection to the next worker in turn. The primary serves nothing
 * itself; it restarts a worker that dies (a standby takes the projector lease meanwhile) and
 * passes SIGTERM, SIGINT and SIGHUP (reload the policy file) on.
 */
export const runApiCluster = async (config: HawserConfig): Promise<void> => {
  exitOnUnhandledErrors('Hawser API');
  try {
    if (!config.natsServers) {
      throw new ConfigurationError(
        `environment variable NATS_URL: expected NATS servers (nats://host:4222), as HAWSER_API_PROCESSES=${config.apiProcesses} API processes tell each other about the read models over NATS, given nothing`,
      );
    }
    await preflight(config, { listens: true });
  } catch (error) {
    refuseStart('Hawser API', error);
  }

  let stopping = false;
  let announced = false;
  const listening = new Set<number>();
  const fork = (): Worker => cluster.fork();
  cluster.on('listening', (worker) => {
    listening.add(worker.id);
    if (!announced && listening.size === config.apiProcesses) {
      announced = true;
      console.log(
        `Hawser API listening on http://${config.bind}:${config.port}/v2 ` +
          `(${config.apiProcesses} processes, primary ${process.pid}; the one holding the projector lease projects)`,
      );
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(
      `Hawser API process ${worker.process.pid} ended (${signal ?? code}); starting another`,
    );
    setTimeout(fork, RESTART_DELAY_MS);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`Hawser API stopping (${signal})`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Each process holds its own policy: a reload reaches every one of them.
  process.on('SIGHUP', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
  });
  for (let i = 0; i < config.apiProcesses; i += 1) fork();
};
