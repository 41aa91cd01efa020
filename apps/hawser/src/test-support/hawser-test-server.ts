import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { BackendConfig } from '#hawser/drivers';
import { loadConfig } from '#hawser/platform';
import { createHawserApp } from '../hawser.app.js';
import {
  ADMIN_TOKEN,
  manilaRequest,
  type ApiResponse,
  type RequestOptions,
} from './manila-http.js';
import { simulatedBackends } from './simulated-backends.js';

export { ADMIN_TOKEN, type ApiResponse, type RequestOptions };

export interface HawserTestServer {
  readonly url: string;
  readonly dataDir: string;
  readonly app: NestExpressApplication;
  request(
    method: string,
    route: string,
    body?: unknown,
    options?: RequestOptions,
  ): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** A real Hawser on a random port, with its own data directory, removed on close. */
export const startHawser = async (
  options: { backends?: (dataDir: string) => BackendConfig[]; env?: Record<string, string> } = {},
): Promise<HawserTestServer> => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-test-'));
  const config = loadConfig({ HAWSER_DATA_DIR: dataDir, HAWSER_AUTH: 'noauth', ...options.env });
  const backends = options.backends ? options.backends(dataDir) : simulatedBackends();
  const app = await createHawserApp(config, backends, { logger: false });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    dataDir,
    app,
    request: (method, route, body, options) => manilaRequest(url, method, route, body, options),
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/**
 * Polls until `check` returns a value that is not undefined, or fails after `timeoutMs`; an
 * expensive check (a listing of every share) polls less often with a longer `intervalMs`.
 */
export const eventually = async <T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 5_000,
  what = 'condition',
  intervalMs = 10,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
};
