import { exitUnlessDataDirectoryWritable, loadConfig, requiredNatsServers } from '#hawser/platform';
import { loadBackends } from '../../hawser/src/backends-config.js';
import { createShareNodeApp } from './share-node.app.js';

const NODE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** HAWSER_NODE_NAME names the node's workflow checkpoint, so it must stay the same across restarts. */
const nodeName = (value: string | undefined): string => {
  if (!value || !NODE_NAME.test(value)) {
    throw new Error(
      `HAWSER_NODE_NAME must name this share node (letters, digits, . _ -), not ${JSON.stringify(value ?? '')}`,
    );
  }
  return value;
};

const config = loadConfig();
exitUnlessDataDirectoryWritable(config.dataDir, 'Hawser share node');
const name = nodeName(process.env.HAWSER_NODE_NAME);
const servers = requiredNatsServers('share node');
const backends = loadBackends(config);
const app = await createShareNodeApp(
  config,
  { servers, name: `hawser-node-${name}` },
  { nodeName: name, backends },
).catch((error: unknown) => {
  // The cause last and on one line, e.g. a back end another node already drives.
  console.error(
    `Share node ${name} cannot start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
console.log(
  `Hawser share node ${name} serving ${backends.map((b) => `${b.name} (${b.availabilityZone})`).join(', ')}; ` +
    `capability reports to NATS ${servers.join(',')} every ${config.reportIntervalS} s ` +
    `(events ${config.eventstoreUrl ? 'KurrentDB' : 'SQLite'}, ` +
    `read models ${config.mongoUrl ? 'MongoDB' : 'SQLite'}, data ${config.dataDir})`,
);
