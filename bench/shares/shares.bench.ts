import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SimulatedBackendConfig } from '#hawser/drivers';
import { loadConfig } from '#hawser/platform';
import { createHawserApp } from '../../apps/hawser/src/hawser.app.js';

/**
 * N shares requested at once over HTTP against the all-in-one service on simulated back ends
 * with no latency: the time until every one is `available` (what Manila 15.1 takes 9 to 10 s
 * for at N = 100 on this kind of machine). Prints one JSON line per round and a summary.
 */
/** Shares per project, under Manila's default quota of 50 shares a project. */
const PER_PROJECT = 25;
const tokenFor = (round: number, share: number) =>
  `bench:${String(round).padStart(8, '0')}${String(Math.floor(share / PER_PROJECT)).padStart(24, '0')}`;
const argument = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};

const backends = (): SimulatedBackendConfig[] =>
  ['az-1', 'az-2'].flatMap((zone, z) =>
    ['a', 'b'].map((letter) => ({
      name: `bench@${letter}${z + 1}`,
      driver: 'simulated' as const,
      availabilityZone: zone,
      pools: [
        { name: 'p1', totalCapacityGb: 100_000 },
        { name: 'p2', totalCapacityGb: 100_000 },
      ],
    })),
  );

const main = async () => {
  const shares = argument('--shares', 100);
  const rounds = argument('--rounds', 5);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-bench-shares-'));
  const app = await createHawserApp(loadConfig({ HAWSER_DATA_DIR: dataDir }), backends(), {
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  const call = async (method: string, route: string, body?: unknown, token = tokenFor(0, 0)) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: {
        'X-Auth-Token': token,
        'X-OpenStack-Manila-API-Version': '2.72',
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  try {
    await call('POST', '/v2/types', {
      share_type: { name: 'bench', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    const results: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const started = performance.now();
      const created = await Promise.all(
        Array.from({ length: shares }, (_, i) =>
          call(
            'POST',
            '/v2/shares',
            { share: { share_proto: 'NFS', size: 1, share_type: 'bench' } },
            tokenFor(round, i),
          ),
        ),
      );
      const accepted = performance.now() - started;
      const refused = created.find((c) => c.share === undefined);
      if (refused) throw new Error(`a request was refused: ${JSON.stringify(refused)}`);
      const ids = new Set(created.map((c) => c.share.id as string));
      for (;;) {
        const list = await call('GET', '/v2/shares/detail?all_tenants=1&status=available');
        const available = (list.shares as { id: string }[]).filter((s) => ids.has(s.id)).length;
        if (available === shares) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const seconds = (performance.now() - started) / 1000;
      results.push(seconds);
      console.log(
        JSON.stringify({
          bench: 'shares',
          round,
          shares,
          acceptedMs: Math.round(accepted),
          allAvailableS: Number(seconds.toFixed(3)),
        }),
      );
    }
    const sorted = [...results].sort((a, b) => a - b);
    console.log(
      `\n${shares} shares requested at once -> all available: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(3)} s, best ${sorted[0]?.toFixed(3)} s over ${rounds} rounds`,
    );
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

await main();
