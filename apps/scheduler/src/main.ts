import {
  loadConfig,
  parseServiceArguments,
  preflight,
  requiredNatsServers,
  runService,
} from '#hawser/platform';
import { createSchedulerApp } from './scheduler.app.js';

parseServiceArguments(
  'hawser-scheduler',
  "Hawser's scheduler process: places requested shares on the pools share nodes report over NATS.",
);

await runService('Hawser scheduler', async () => {
  const config = loadConfig();
  const servers = requiredNatsServers('scheduler', config);
  await preflight(config, { listens: false });
  const app = await createSchedulerApp(config, { servers, name: 'hawser-scheduler' });
  console.log(
    `Hawser scheduler placing shares, capability reports from NATS ${servers.join(',')} ` +
      `(a back end silent for ${config.serviceDownTimeS} s leaves, ` +
      `events ${config.eventstoreUrl ? 'KurrentDB' : 'SQLite'}, ` +
      `read models ${config.mongoUrl ? 'MongoDB' : 'SQLite'}, data ${config.dataDir})`,
  );
  return app;
});
