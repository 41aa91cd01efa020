import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { SimulatedBackendConfig } from '#hawser/drivers';
import { loadConfig } from '#hawser/platform';
import { createHawserApp } from '../../apps/hawser/src/hawser.app.js';

/** Four simulated back ends with no latency in two zones of one replication domain. */
const BACKENDS = [
  ['bench@a1', 'az-1'],
  ['bench@b1', 'az-1'],
  ['bench@a2', 'az-2'],
  ['bench@b2', 'az-2'],
] as const;

export const benchBackends = (): SimulatedBackendConfig[] =>
  BACKENDS.map(([name, availabilityZone]) => ({
    name,
    driver: 'simulated',
    availabilityZone,
    replicationDomain: 'bench-domain',
    pools: ['p1', 'p2'].map((pool) => ({ name: pool, totalCapacityGb: 1_000_000 })),
  }));

export interface BenchServer {
  readonly base: string;
  close(): Promise<void>;
}

/** The all-in-one service on a fresh data directory, listening on a free local port. */
export const startBenchServer = async (): Promise<BenchServer> => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-shares-'));
  const app: NestExpressApplication = await createHawserApp(
    loadConfig({ HAWSER_DATA_DIR: dataDir }),
    benchBackends(),
    { logger: false },
  );
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}/v2`,
    close: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** Run as a child process (`--external`): prints its URL as one JSON line, stops on SIGTERM. */
if (process.argv[1] !== undefined && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const server = await startBenchServer();
  process.stdout.write(`${JSON.stringify({ base: server.base })}\n`);
  process.once('SIGTERM', () => {
    void server.close().then(() => process.exit(0));
  });
}
