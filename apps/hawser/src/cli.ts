import { Command } from 'commander';
import { createEventStore } from '#hawser/eventstore';
import { environmentHelp, loadConfig, refuseStart } from '#hawser/platform';
import { ALL_PROJECTIONS } from '#hawser/projections';
import { createDocumentStore, ProjectionRunner } from '#hawser/read-models';
import { createUpcasters } from '../../../eventstore/catalogue.js';

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
  const events = await createEventStore({
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

const rebuildProjection = async (name: string, options: { url?: string; token: string }) => {
  if (!ALL_PROJECTIONS.some((p) => p.name === name)) {
    program.error(`error: no projection named ${name}`, { exitCode: 2 });
  }
  const url = options.url ?? `http://127.0.0.1:${loadConfig().port}`;
  let result: string;
  try {
    result = await rebuildThroughService(url, options.token, name);
  } catch (error) {
    const refused = (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
    if (!refused) throw error;
    result = await rebuildOffline(name);
  }
  console.log(result);
};

const program = new Command('npm run hawser --')
  .description("Hawser's operator commands.")
  .addHelpText('after', environmentHelp())
  .showHelpAfterError();

program
  .command('rebuild-projection')
  .description(
    'Rebuild a read model from position zero into fresh collections and swap them in: through ' +
      'the running service at --url, which keeps answering meanwhile; when no service answers ' +
      'there, directly on HAWSER_DATA_DIR.',
  )
  .argument('<name>', `the projection: ${ALL_PROJECTIONS.map((p) => p.name).join(', ')}`)
  .option('--url <url>', "the service's base URL (default http://127.0.0.1:$PORT)")
  .option('--token <token>', 'X-Auth-Token of an admin', 'admin:admin')
  .action(rebuildProjection);

await program.parseAsync(process.argv).catch((error: unknown) => refuseStart('hawser', error));
