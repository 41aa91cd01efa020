import {
  listenOrRefuse,
  loadBackends,
  loadConfig,
  parseServiceArguments,
  preflight,
  runService,
} from '#hawser/platform';
import { refuseBadPolicy } from '../../api/src/policy/refuse-bad-policy.js';
import { createHawserApp } from './hawser.app.js';

parseServiceArguments(
  'hawser',
  "Hawser all in one process: Manila's v2 API, the scheduler and a share node.",
);

await runService('Hawser', async () => {
  const config = loadConfig();
  refuseBadPolicy(config);
  const backends = loadBackends(config);
  await preflight(config, { listens: true });
  const app = await createHawserApp(config, backends);
  await listenOrRefuse(app, config.port, config.bind);
  console.log(
    `Hawser listening on http://${config.bind}:${config.port}/v2 ` +
      `(auth ${config.auth}, events ${config.eventstoreUrl ? 'KurrentDB' : 'SQLite'}, ` +
      `read models ${config.mongoUrl ? 'MongoDB' : 'SQLite'}, data ${config.dataDir})`,
  );
  return app;
});
