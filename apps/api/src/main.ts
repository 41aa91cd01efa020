import cluster from 'node:cluster';
import {
  boundHeapGrowth,
  listenOrRefuse,
  loadConfig,
  parseServiceArguments,
  preflight,
  ProjectorRole,
  refuseStart,
  runService,
} from '#hawser/platform';
import { createApiApp } from './api.app.js';
import { apiWorkerRole, PROJECTING_MESSAGE, runApiCluster } from './api-cluster.js';
import { refuseBadPolicy } from './policy/refuse-bad-policy.js';

parseServiceArguments(
  'hawser-api',
  "Hawser's API process: Manila's v2 API and the projections (the one writer of the read models).",
);

const loaded = (() => {
  try {
    return loadConfig();
  } catch (error) {
    return refuseStart('Hawser API', error);
  }
})();

if (loaded.apiProcesses > 1 && cluster.isPrimary) {
  boundHeapGrowth(loaded.heapGrowthPercent);
  await runApiCluster(loaded);
} else {
  // A cluster worker shares the primary's socket: the primary has checked the port.
  const listens = cluster.isPrimary;
  const worker = apiWorkerRole();
  await runService('Hawser API', async () => {
    const config = loadConfig();
    refuseBadPolicy(config);
    await preflight(config, { listens });
    const app = await createApiApp(config, { projectorCandidate: worker !== 'server' });
    if (worker === 'projector') {
      await app.init();
      console.log(`Hawser API process ${process.pid} projecting for the cluster (serves no HTTP)`);
      process.send?.(PROJECTING_MESSAGE);
      return app;
    }
    await listenOrRefuse(app, config.port, config.bind);
    const role = app.get(ProjectorRole).status().role;
    console.log(
      `Hawser ${listens ? 'API listening on' : `API process ${process.pid} serving`} ` +
        `http://${config.bind}:${config.port}/v2 ` +
        `(auth ${config.auth}, projector ${role}, ` +
        `events ${config.eventstoreUrl ? 'KurrentDB' : 'SQLite'}, ` +
        `read models ${config.mongoUrl ? 'MongoDB' : 'SQLite'}, data ${config.dataDir})`,
    );
    return app;
  });
}
