import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import type { Server } from 'node:http';
import { consoleRouter } from '../../api/src/console/console-router.js';
import {
  describeWithKeystone,
  hawserKeystoneEnv,
  keystoneUrl,
} from '../../api/src/http/keystone/test-support/keystone-test-users.js';
import {
  startHawser,
  type HawserTestServer,
} from '../../hawser/src/test-support/hawser-test-server.js';

const env = process.env;

describe('the web console served at /ui (noauth)', () => {
  let hawser: HawserTestServer;

  beforeAll(async () => {
    hawser = await startHawser();
  });
  afterAll(async () => {
    await hawser?.close();
  });

  it('given the built console, when /ui/ is asked for without a token, then the page and every asset it names come from Hawser', async () => {
    const page = await fetch(`${hawser.url}/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset.startsWith('/ui/assets/')).toBe(true);
      const served = await fetch(`${hawser.url}${asset}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('cache-control')).toContain('immutable');
    }
  });

  it('given /ui without its slash, when asked for, then it redirects to /ui/', async () => {
    const response = await fetch(`${hawser.url}/ui`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/ui/');
  });

  it('given noauth, when the sign-in page asks, then it learns the mode, and a password sign-in is a 404', async () => {
    expect(await (await fetch(`${hawser.url}/ui/config.json`)).json()).toEqual({ auth: 'noauth' });
    const response = await fetch(`${hawser.url}/ui/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'a', password: 'b', project: 'c' }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      itemNotFound: { code: 404, message: 'Sign-in with a password needs HAWSER_AUTH=keystone.' },
    });
  });

  it("given a member's token, when the permissions are read, then they say who it is and what the policy lets it do", async () => {
    const { status, body } = await hawser.request('GET', '/hawser/v1/permissions', undefined, {
      token: 'alice:proj1:member',
    });
    expect(status).toBe(200);
    const { permissions } = body;
    expect(permissions).toMatchObject({
      user_id: 'alice',
      project_id: 'proj1',
      roles: ['member'],
      is_admin: false,
    });
    expect(permissions.rules['share:create']).toBe(true);
    expect(permissions.rules['share:allow_access']).toBe(true);
    expect(permissions.rules['share:reset_status']).toBe(false);
    expect(permissions.rules['hawser:parked_events:retry']).toBe(false);
  });

  it("given a reader's token, when the permissions are read, then no write passes", async () => {
    const { body } = await hawser.request('GET', '/hawser/v1/permissions', undefined, {
      token: 'carol:proj1:reader',
    });
    const rules = body.permissions.rules as Record<string, boolean>;
    expect(rules['share:get_all']).toBe(true);
    for (const write of [
      'share:create',
      'share:delete',
      'share:allow_access',
      'share:create_snapshot',
      'share_replica:promote',
    ]) {
      expect([write, rules[write]]).toEqual([write, false]);
    }
  });
});

describe('the web console before it is built', () => {
  let server: Server;
  let url: string;
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-ui-'));

  beforeAll(async () => {
    const app = express();
    app.use('/ui', consoleRouter({ auth: 'noauth', keystone: undefined }, empty));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(empty, { recursive: true, force: true });
  });

  it('given no built assets, when /ui/ is asked for, then a 404 says how to build them', async () => {
    const response = await fetch(`${url}/ui/`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('npm run build');
  });
});

describeWithKeystone('the web console signing in with Keystone', () => {
  let hawser: HawserTestServer;
  const signIn = (fields: Record<string, unknown>) =>
    fetch(`${hawser.url}/ui/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(fields),
    });

  beforeAll(async () => {
    hawser = await startHawser({ env: hawserKeystoneEnv(keystoneUrl as string) });
  });
  afterAll(async () => {
    await hawser?.close();
  });

  it('given a member’s user name, password and project, when signing in, then Hawser answers with a Keystone token the API accepts', async () => {
    expect(await (await fetch(`${hawser.url}/ui/config.json`)).json()).toEqual({
      auth: 'keystone',
    });
    const response = await signIn({
      username: env['KEYSTONE_MEMBER_USERNAME'],
      password: env['KEYSTONE_MEMBER_PASSWORD'],
      project: env['KEYSTONE_MEMBER_PROJECT'],
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { token } = (await response.json()) as { token: string };
    const { status, body } = await hawser.request('GET', '/hawser/v1/permissions', undefined, {
      token,
    });
    expect(status).toBe(200);
    expect(body.permissions.roles).toEqual(expect.arrayContaining(['member']));
    expect(body.permissions.rules['share:create']).toBe(true);
  });

  it('given a wrong password, when signing in, then it is a 401 and no token', async () => {
    const response = await signIn({
      username: env['KEYSTONE_MEMBER_USERNAME'],
      password: 'not-the-password',
      project: env['KEYSTONE_MEMBER_PROJECT'],
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as Record<string, { message: string }>;
    expect(body['unauthorized']?.message).toContain('not right');
  });

  it('given a form without a password, when signing in, then it is a 400 and Keystone is not asked', async () => {
    const response = await signIn({ username: 'someone', project: 'demo' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      badRequest: { code: 400, message: 'password is required.' },
    });
  });
});
