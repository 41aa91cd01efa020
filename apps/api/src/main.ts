import { exitUnlessDataDirectoryWritable, loadConfig } from '#hawser/platform';
import { createApiApp } from './api.app.js';
import { refuseBadPolicy } from './policy/refuse-bad-policy.js';

const config = loadConfig();
exitUnlessDataDirectoryWritable(config.dataDir, 'Hawser API');
refuseBadPolicy(config);
const app = await createApiApp(config);
app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
await app.listen(config.port, config.bind);
console.log(
  `Hawser API listening on http://${config.bind}:${config.port}/v2 ` +
    `(auth ${config.auth}, projections written here, ` +
    `events ${config.eventstoreUrl ? 'KurrentDB' : 'SQLite'}, ` +
    `read models ${config.mongoUrl ? 'MongoDB' : 'SQLite'}, data ${config.dataDir})`,
);
