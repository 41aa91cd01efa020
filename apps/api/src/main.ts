import {
  listenOrRefuse,
  loadConfig,
  parseServiceArguments,
  preflight,
  runService,
} from '#hawser/platform';
import { createApiApp } from './api.app.js';
import { refuseBadPolicy } from './policy/refuse-bad-policy.js';

parseServiceArguments(
  'hawser-api',
  "Hawser's API process: Manila's v2 API and the projections (the one writer of the read models).",
);

await runService('Hawser API', async () => {
  const config = loadConfig();
  refuseBadPolicy(config);
  await preflight(config, { listens: true });
  const app = await createApiApp(config);
  await listenOrRefuse(app, config.port, config.bind);
  console.log(
    `Hawser API listening on http://${config.bind}:${config.port}/v2 ` +
      `(auth ${config.auth}, projections written here, ` +
      `events ${config.eventstoreUrl ? 'KurrentDB' : 'SQLite'}, ` +
      `read models ${config.mongoUrl ? 'MongoDB' : 'SQLite'}, data ${config.dataDir})`,
  );
  return app;
});
