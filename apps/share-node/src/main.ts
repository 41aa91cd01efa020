import {
  ConfigurationError,
  loadBackends,
  loadConfig,
  parseServiceArguments,
  preflight,
  requiredNatsServers,
  runService,
  StartupRefusal,
} from '#hawser/platform';
import { createShareNodeApp } from './share-node.app.js';

parseServiceArguments(
  'hawser-share-node',
  'A Hawser share node: drives the back ends of HAWSER_BACKENDS and reports their pools over NATS.',
);

await runService('Hawser share node', async () => {
  const config = loadConfig();
  // The name keys the node's workflow checkpoint, so it must stay the same across restarts.
  const name = config.nodeName;
  if (!name) {
    throw new ConfigurationError(
      'environment variable HAWSER_NODE_NAME: expected a share node name (letters, digits, . _ -), given nothing',
    );
  }
  const servers = requiredNatsServers('share node', config);
  const backends = loadBackends(config);
  await preflight(config, { listens: false });
  const app = await createShareNodeApp(
    config,
    { servers, name: `hawser-node-${name}` },
    { nodeName: name, backends },
  ).catch((error: unknown) => {
    // The cause on one line, e.g. a back end another node already drives.
    throw new StartupRefusal(
      `share node ${name}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  console.log(
    `Hawser share node ${name} serving ${backends.map((b) => `${b.name} (${b.availabilityZone})`).join(', ')}; ` +
      `capability reports to NATS ${servers.join(',')} every ${config.reportIntervalS} s ` +
      `(events ${config.eventstoreUrl ? 'KurrentDB' : 'SQLite'}, ` +
      `read models ${config.mongoUrl ? 'MongoDB' : 'SQLite'}, data ${config.dataDir})`,
  );
  return app;
});
