import { exitUnlessDataDirectoryWritable, loadConfig, requiredNatsServers } from '#hawser/platform';
import { createSchedulerApp } from './scheduler.app.js';

const config = loadConfig();
exitUnlessDataDirectoryWritable(config.dataDir, 'Hawser scheduler');
const servers = requiredNatsServers('scheduler');
const app = await createSchedulerApp(config, { servers, name: 'hawser-scheduler' });
app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
console.log(
  `Hawser scheduler placing shares, capability reports from NATS ${servers.join(',')} ` +
    `(a back end silent for ${config.serviceDownTimeS} s leaves, ` +
    `events ${config.eventstoreUrl ? 'KurrentDB' : 'SQLite'}, ` +
    `read models ${config.mongoUrl ? 'MongoDB' : 'SQLite'}, data ${config.dataDir})`,
);
