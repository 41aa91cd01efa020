import { exitUnlessDataDirectoryWritable, loadConfig } from '#hawser/platform';
import { loadBackends } from './backends-config.js';
import { refuseBadPolicy } from '../../api/src/policy/refuse-bad-policy.js';
import { createHawserApp } from './hawser.app.js';

const config = loadConfig();
exitUnlessDataDirectoryWritable(config.dataDir, 'Hawser');
refuseBadPolicy(config);
const app = await createHawserApp(config, loadBackends(config));
await app.listen(config.port, config.bind);
console.log(
  `Hawser listening on http://${config.bind}:${config.port}/v2 ` +
    `(auth ${config.auth}, events ${config.eventstoreUrl ? 'KurrentDB' : 'SQLite'}, ` +
    `read models ${config.mongoUrl ? 'MongoDB' : 'SQLite'}, data ${config.dataDir})`,
);

// A clean stop: finish what is in hand, close the stores, exit 0.
const stop = async (signal: string) => {
  console.log(`Hawser stopping (${signal})`);
  await app.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
