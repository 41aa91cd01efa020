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
/** What a projector process tells the primary once it projects. */
export const PROJECTING_MESSAGE = 'hawser-api-projecting';
type WorkerRole = 'projector' | 'server';
/** A worker that serves and is a candidate for the lease: no role variable, as outside a cluster. */
type ForkedAs = WorkerRole | 'candidate';

/**
 * What this process does in a cluster with a projector process: `projector` runs the
 * projections and the API's process managers and serves no HTTP; `server` serves HTTP and never
 * projects. Undefined for a process that serves and is a candidate for the lease: a cluster's
 * worker without a projector process, a lone API process, or one of several behind a load
 * balancer.
 */
export const apiWorkerRole = (): WorkerRole | undefined => {
  const role = cluster.isWorker ? process.env[WORKER_ROLE_VARIABLE] : undefined;
  return role === 'projector' || role === 'server' ? role : undefined;
};

/** A worker that dies this soon after its start is not restarted again and again. */
const RESTART_DELAY_MS = 500;

/**
 * The API as several processes on one port, with node's cluster module: this primary forks
 * HAWSER_API_PROCESSES workers, each a whole API process, and the kernel's listening socket,
 * held here, hands each new connection to the next worker in turn. Each worker is a candidate
 * for the projector lease, or with HAWSER_API_PROJECTOR_PROCESS none is and one more worker
 * projects and serves no HTTP (so no request waits behind a projection round). The primary
 * serves nothing itself; it restarts a worker that dies in its role (a standby, or a restarted
 * projector process, takes the lease meanwhile) and passes SIGTERM, SIGINT and SIGHUP (reload
 * the policy file) on.
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
  const roles = new Map<number, ForkedAs>();
  const fork = (role: ForkedAs): Worker => {
    const worker = cluster.fork(role === 'candidate' ? {} : { [WORKER_ROLE_VARIABLE]: role });
    roles.set(worker.id, role);
    return worker;
  };
  // Listening is announced once every serving process listens and, with a projector process,
  // that process projects: before, a write's read-your-writes would wait for it.
  let projecting = !config.apiProjectorProcess;
  const announceWhenReady = () => {
    if (announced || !projecting || listening.size < config.apiProcesses) return;
    announced = true;
    console.log(
      `Hawser API listening on http://${config.bind}:${config.port}/v2 ` +
        `(${config.apiProcesses} processes, primary ${process.pid}; ` +
        `${config.apiProjectorProcess ? 'one more projects' : 'the one holding the projector lease projects'})`,
    );
  };
  cluster.on('listening', (worker) => {
    listening.add(worker.id);
    announceWhenReady();
  });
  cluster.on('message', (_worker, message) => {
    if (message !== PROJECTING_MESSAGE) return;
    projecting = true;
    announceWhenReady();
  });
  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker.id);
    const role = roles.get(worker.id) ?? 'candidate';
    roles.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(
      `Hawser API process ${worker.process.pid} (${role}) ended (${signal ?? code}); starting another`,
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
  if (config.apiProjectorProcess) fork('projector');
  for (let i = 0; i < config.apiProcesses; i += 1) {
    fork(config.apiProjectorProcess ? 'server' : 'candidate');
  }
};
