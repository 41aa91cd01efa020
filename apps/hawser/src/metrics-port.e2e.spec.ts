import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  describeWithKeystone,
  hawserKeystoneEnv,
  issueToken,
  keystoneUrl,
} from '../../api/src/http/keystone/test-support/keystone-test-users.js';
import { HawserProcess, freePort, runUntilExit } from './test-support/hawser-process.js';
import { eventually } from './test-support/hawser-test-server.js';
import { manilaRequest } from './test-support/manila-http.js';
import { metricValue } from './test-support/observability.js';

describeWithKeystone(
  'Prometheus scrape of a Keystone-authenticated Hawser on HAWSER_METRICS_PORT',
  () => {
    let dir: string;
    let hawser: HawserProcess;
    let base: string;
    let metricsUrl: string;

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-metrics-port-'));
      const [port, metricsPort] = [await freePort(), await freePort()];
      base = `http://127.0.0.1:${port}`;
      metricsUrl = `http://127.0.0.1:${metricsPort}`;
      hawser = new HawserProcess({
        ...hawserKeystoneEnv(keystoneUrl as string),
        HAWSER_DATA_DIR: path.join(dir, 'data'),
        PORT: String(port),
        HAWSER_METRICS_PORT: String(metricsPort),
      });
      await hawser.start(90_000);
    }, 120_000);

    afterAll(async () => {
      await hawser?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('given Keystone auth, when Prometheus scrapes the metrics port without a token, then it gets the API process metrics, request counts included, while the API port still asks for an admin', async () => {
      const member = await issueToken('MEMBER');
      const listed = await manilaRequest(base, 'GET', '/v2/shares', undefined, {
        token: member.token,
      });
      expect(listed.status).toBe(200);

      const scraped = await fetch(`${metricsUrl}/metrics`);
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toContain('text/plain');
      const text = await scraped.text();
      expect(
        metricValue(text, 'hawser_http_request_duration_seconds_count', {
          method: 'GET',
          status: '200',
        }),
      ).toBeGreaterThanOrEqual(1);
      await eventually(
        async () => ((await fetch(`${metricsUrl}/health/ready`)).status === 200 ? true : undefined),
        60_000,
        'readiness on the metrics port',
      );

      expect((await manilaRequest(base, 'GET', '/metrics', undefined, { token: '' })).status).toBe(
        401,
      );
      const asMember = await manilaRequest(base, 'GET', '/metrics', undefined, {
        token: member.token,
      });
      expect(asMember.status).toBe(403);
    });

    it('given no HAWSER_METRICS_BIND, then the token-free listener is on loopback only', () => {
      expect(hawser.output).toMatch(/metrics and health at http:\/\/127\.0\.0\.1:\d+\/metrics/);
    });
  },
);

describe('HAWSER_METRICS_PORT taken', () => {
  it('given another process listening on the metrics port, when Hawser starts, then it names the port and its variables in one line and never claims to have started', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port: metricsPort } = taken.address() as net.AddressInfo;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-metrics-taken-'));
    try {
      const { code, output } = await runUntilExit({
        HAWSER_DATA_DIR: path.join(dir, 'data'),
        PORT: String(await freePort()),
        HAWSER_METRICS_PORT: String(metricsPort),
        HAWSER_LOG_LEVEL: 'silent',
      });

      expect(code).toBe(1);
      const lines = output.split('\n').filter((line) => line.trim() !== '');
      expect(lines).toEqual([
        `Hawser cannot start: cannot listen on 127.0.0.1:${metricsPort} ` +
          '(HAWSER_METRICS_PORT, HAWSER_METRICS_BIND): another process is listening there (EADDRINUSE)',
      ]);
    } finally {
      taken.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
