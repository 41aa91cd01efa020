import { createEventStore } from '#hawser/eventstore';
import { loadConfig } from '#hawser/platform';
import { ALL_PROJECTIONS } from '#hawser/projections';
import { createDocumentStore, ProjectionRunner } from '#hawser/read-models';
import { createUpcasters } from '../../../eventstore/catalogue.js';

const USAGE = `usage: npm run hawser -- rebuild-projection <name> [--url URL] [--token TOKEN]

Rebuilds a read model from position zero into fresh collections and swaps them in.
Through the running service at --url (default http://127.0.0.1:$PORT), which keeps answering
meanwhile; when no service answers there, directly on HAWSER_DATA_DIR.
Projections: ${ALL_PROJECTIONS.map((p) => p.name).join(', ')}`;

const option = (args: string[], name: string): string | undefined => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};

const rebuildThroughService = async (url: string, token: string, name: string) => {
  const response = await fetch(`${url}/hawser/v1/projections/${encodeURIComponent(name)}/rebuild`, {
    method: 'POST',
    headers: { 'X-Auth-Token': token },
  });
  const body = await response.text();
  if (!response.ok) throw new Error(`${response.status}: ${body}`);
  return body;
};

const rebuildOffline = async (name: string) => {
  const config = loadConfig();
  if (!ALL_PROJECTIONS.some((p) => p.name === name)) throw new Error(`no projection named ${name}`);
  const events = createEventStore({
    dataDir: config.dataDir,
    eventstoreUrl: config.eventstoreUrl,
    upcasters: createUpcasters(),
  });
  const documents = await createDocumentStore({
    dataDir: config.dataDir,
    mongoUrl: config.mongoUrl,
  });
  const runner = new ProjectionRunner(events, documents, ALL_PROJECTIONS);
  try {
    await runner.start();
    await runner.waitForPosition(await events.headPosition(), 600_000);
    const started = Date.now();
    await runner.rebuild(name);
    return `rebuilt ${name} in ${Date.now() - started} ms`;
  } finally {
    await runner.stop();
    await documents.close();
    await events.close();
  }
};

const main = async (args: string[]) => {
  const [command, name] = args;
  if (command !== 'rebuild-projection' || !name) {
    console.error(USAGE);
    return 2;
  }
  const url = option(args, '--url') ?? `http://127.0.0.1:${loadConfig().port}`;
  const token = option(args, '--token') ?? 'admin:admin';
  let result: string;
  try {
    result = await rebuildThroughService(url, token, name);
  } catch (error) {
    const refused = (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
    if (!refused) throw error;
    result = await rebuildOffline(name);
  }
  console.log(result);
  return 0;
};

process.exitCode = await main(process.argv.slice(2));
