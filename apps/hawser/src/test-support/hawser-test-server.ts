import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { BackendConfig } from '#hawser/drivers';
import { loadConfig } from '#hawser/platform';
import { createHawserApp } from '../hawser.app.js';
import { simulatedBackends } from './simulated-backends.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of any shape
}

export interface RequestOptions {
  token?: string;
  version?: string;
  headers?: Record<string, string>;
  /** A raw body sent as is (malformed JSON tests). */
  raw?: string;
}

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

export const ADMIN_TOKEN = 'admin:11111111111111111111111111111111';

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
    async request(method, route, body, opts = {}) {
      const headers: Record<string, string> = {
        'X-OpenStack-Manila-API-Version': opts.version ?? '2.72',
        ...(opts.token !== '' && { 'X-Auth-Token': opts.token ?? ADMIN_TOKEN }),
        ...opts.headers,
      };
      if (body !== undefined || opts.raw !== undefined)
        headers['Content-Type'] = 'application/json';
      const response = await fetch(`${url}${route}`, {
        method,
        headers,
        body: opts.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
        redirect: 'manual',
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** Polls until `check` returns a value that is not undefined, or fails after `timeoutMs`. */
export const eventually = async <T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 5_000,
  what = 'condition',
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
