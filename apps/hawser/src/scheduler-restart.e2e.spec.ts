import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { BackendConfig } from '#hawser/drivers';
import { loadConfig } from '#hawser/platform';
import { createHawserApp } from './hawser.app.js';
import { manilaRequest } from './test-support/manila-http.js';
import { createPlacedShare } from './test-support/placed-share.js';
import { simulatedPools } from './test-support/simulated-backends.js';

const KEPT = simulatedPools({ 'kept@sim': { p: 1000 } });
const BOTH = [...KEPT, ...simulatedPools({ 'removed@sim': { p: 1000 } })];

describe('Placement after a restart without one of the back ends', () => {
  let dir: string;
  let app: NestExpressApplication | undefined;

  // Reports every ten minutes: a scheduler that waited for the removed back end's report (or
  // for two report intervals) would leave a new share without a host all through this test.
  const config = () =>
    loadConfig({ HAWSER_DATA_DIR: dir, HAWSER_AUTH: 'noauth', HAWSER_REPORT_INTERVAL_S: '600' });

  const start = async (backends: readonly BackendConfig[]) => {
    app = await createHawserApp(config(), backends, { logger: false });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    return (method: string, route: string, body?: unknown) =>
      manilaRequest(base, method, route, body);
  };

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-restart-'));
  });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given two back ends registered, when the service restarts with one of them, then a new share is placed while the removed one never reports, which is shown down', async () => {
    const first = await start(BOTH);
    const type = await first('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    await app?.close();

    const call = await start(KEPT);
    const share = await createPlacedShare(call, 15_000);
    expect(share.host).toBe('kept@sim#p');

    const services = (await call('GET', '/v2/services?binary=manila-share')).body.services;
    expect(services.map((s: { host: string; state: string }) => [s.host, s.state])).toEqual([
      ['kept@sim', 'up'],
      ['removed@sim', 'down'],
    ]);
    const ready = await call('GET', '/health/ready');
    expect(ready.body.info.scheduler).toMatchObject({
      placing: true,
      reportingBackends: ['kept@sim'],
    });
  });
});
