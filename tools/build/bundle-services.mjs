// Bundles each service's compiled entry point (what `tsc -b` writes under dist/apps) into
// dist/bundle with rolldown. A start then loads a few large files instead of about 1,500
// modules one by one: resolving, reading and compiling them was two thirds of a start's time.
// The services still run the same compiled code (decorator metadata included, as tsc emitted it).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { build } from 'rolldown';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bundleDir = path.join(repo, 'dist/bundle');

/** The entry points, named as `npm start`, `npm run start:*` and `npm run hawser` run them. */
const ENTRY_POINTS = {
  hawser: 'dist/apps/hawser/src/main.js',
  'hawser-cli': 'dist/apps/hawser/src/cli.js',
  api: 'dist/apps/api/src/main.js',
  scheduler: 'dist/apps/scheduler/src/main.js',
  'share-node': 'dist/apps/share-node/src/main.js',
};

/**
 * Loaded from node_modules at run time rather than bundled: native addons, pino (its transports
 * start worker threads from its own files), and the production stores' clients, which are
 * imported only when MONGO_URL or EVENTSTORE_URL is set and so cost the embedded default nothing.
 */
const EXTERNAL = [
  /^node:/,
  'better-sqlite3',
  /^pino(-.*)?$/,
  'mongodb',
  '@kurrent/kurrentdb-client',
];

/**
 * Optional peers NestJS and Apollo look for with a guarded import and do without when they are
 * missing, as they are here: left as imports that would fail, never reached.
 */
const OPTIONAL_PEERS = [
  '@apollo/gateway',
  '@apollo/subgraph',
  '@as-integrations/fastify',
  '@nestjs/websockets/socket-module.js',
  'amqp-connection-manager',
  'class-transformer',
  'ioredis',
  'kafkajs',
  'mqtt',
  'ts-morph',
];

export const bundleServices = async () => {
  rmSync(bundleDir, { recursive: true, force: true });
  const unresolved = new Set();
  await build({
    input: Object.fromEntries(
      Object.entries(ENTRY_POINTS).map(([name, file]) => [name, path.join(repo, file)]),
    ),
    platform: 'node',
    external: [...EXTERNAL, ...OPTIONAL_PEERS],
    onLog: (level, log) => {
      if (log.code === 'UNRESOLVED_IMPORT') unresolved.add(stripVTControlCharacters(log.message));
      else if (level === 'warn') process.stderr.write(`${log.message}\n`);
    },
    output: { dir: bundleDir, format: 'esm' },
    logLevel: 'warn',
  });
  // An import nobody listed would fail only when reached: refuse the build instead.
  if (unresolved.size > 0) {
    throw new Error(`unresolved imports in the services' bundle:\n${[...unresolved].join('\n')}`);
  }
  refuseRenamedClasses();
};

/**
 * NestJS, GraphQL (a type's name) and the log contexts read classes' names. The bundler renames
 * a class whose name another module already uses (`Server` becomes `Server$1`), which would
 * change what they read: refuse a renamed class unless it is known to be harmless.
 */
const HARMLESS_RENAMES = new Set([
  // @nestjs/microservices' transport base class: only its own log context reads the name.
  'Server',
]);
const refuseRenamedClasses = () => {
  const renamed = new Set();
  for (const file of readdirSync(bundleDir)) {
    for (const [, name] of readFileSync(path.join(bundleDir, file), 'utf8').matchAll(
      /\bclass ([\w$]+?)\$\d+\b/g,
    )) {
      if (!HARMLESS_RENAMES.has(name)) renamed.add(name);
    }
  }
  if (renamed.size > 0) {
    throw new Error(`classes renamed in the services' bundle: ${[...renamed].join(', ')}`);
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleServices();
