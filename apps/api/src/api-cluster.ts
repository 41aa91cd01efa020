import cluster, { type Worker } from 'node:cluster';
import {
  ConfigurationError,
  exitOnUnhandledErrors,
  preflight,
  refuseStart,
  type HawserConfig,
} from '#hawser/platform';

/**
 * Set by the primary on each worker: what it does for the cluster. Not named HAWSER_*: that
 * prefix is the configuration's, which refuses names it does not know, and this is no setting.
 */
const WORKER_ROLE_VARIABLE = 'API_CLUSTER_ROLE';
type WorkerRole = 'projector' | 'server';

/**
 * What this process does in a cluster: `projector` runs the projections and the API's process
 * managers and serves no HTTP; `server` serves HTTP and never projects; undefined outside a
 * cluster (a lone API process, or one of several behind a load balancer: a candidate that
 * serves).
 */
export const apiWorkerRole = (): WorkerRole | undefined => {
  const role = cluster.isWorker ? process.env[WORKER_ROLE_VARIABLE] : undefined;
  return role === 'projector' || role === 'server' ? role : undefined;
};

/** A worker that dies this soon after its start is not restarted again and again. */
const RESTART_DELAY_MS = 500;

/**
 * The API as several processes on one port, with node's cluster module: this primary forks
 * HAWSER_API_PROCESSES serving workers and one projector worker, each a whole API process. The
 * kernel's listening socket, held here, hands each new connection to the next serving worker in
 * turn; the projector worker holds the projector lease and serves no HTTP, so no request waits
 * behind a projection round. The primary serves nothing itself; it restarts a worker that dies
 * in its role (a restarted projector takes the lease of its dead predecessor at once) and passes
 * SIGTERM, SIGINT and SIGHUP (reload the policy file) on.
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
  const roles = new Map<number, WorkerRole>();
  const fork = (role: WorkerRole): Worker => {
    const worker = cluster.fork({ [WORKER_ROLE_VARIABLE]: role });
    roles.set(worker.id, role);
    return worker;
  };
  cluster.on('listening', (worker) => {
    listening.add(worker.id);
    if (!announced && listening.size === config.apiProcesses) {
      announced = true;
      console.log(
        `Hawser API listening on http://${config.bind}:${config.port}/v2 ` +
          `(${config.apiProcesses} processes and a projector process, primary ${process.pid})`,
      );
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker.id);
    const role = roles.get(worker.id) ?? 'server';
    roles.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(
      `Hawser API ${role} process ${worker.process.pid} ended (${signal ?? code}); starting another`,
    );
    setTimeout(() => fork(role), RESTART_DELAY_MS);
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
  fork('projector');
  for (let i = 0; i < config.apiProcesses; i += 1) fork('server');
};
