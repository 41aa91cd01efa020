import net from 'node:net';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Authenticator } from '../authenticator.js';
import { ExpressAdapterWithPrototypes } from '../express-adapter.js';
import { configureHttpPipeline } from '../http-pipeline.js';
import {
  KeystoneAuthenticator,
  type KeystoneAuthenticatorOptions,
} from './keystone-authenticator.js';
import {
  describeWithKeystone,
  issueToken,
  keystoneSettings,
  keystoneUrl,
  revokeToken,
} from './test-support/keystone-test-users.js';
import { KeystoneUnavailableError } from './keystone-unavailable.error.js';

interface KeystoneCall {
  readonly request: string;
  readonly status: number;
  readonly subjectToken: string | null;
}

/** The real fetch, recording each request the authenticator makes to Keystone. */
const recordingFetch = () => {
  const calls: KeystoneCall[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    calls.push({
      request: `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`,
      status: response.status,
      subjectToken: response.headers.get('X-Subject-Token'),
    });
    return response;
  };
  return { calls, fetch: recording };
};

const requests = (calls: readonly KeystoneCall[]) => calls.map((c) => `${c.request} ${c.status}`);

@Module({})
class NoRoutesModule {}

/** The real HTTP pipeline with no controllers: a request that passes authentication gets 404. */
const startPipeline = async (authenticator: Authenticator) => {
  const app = await NestFactory.create<NestExpressApplication>(
    NoRoutesModule,
    new ExpressAdapterWithPrototypes(),
    { logger: false },
  );
  configureHttpPipeline(app, { bodyLimit: '16kb', authenticator });
  await app.listen(0, '127.0.0.1');
  return { app, url: await app.getUrl() };
};

describeWithKeystone('KeystoneAuthenticator against a real Keystone', () => {
  const url = keystoneUrl as string;
  const authenticatorWith = (options: KeystoneAuthenticatorOptions = {}, cacheS = 300) =>
    new KeystoneAuthenticator(keystoneSettings(url, cacheS), options);

  it('given an admin token, names the admin with its project and roles', async () => {
    const admin = await issueToken('ADMIN');

    const auth = await authenticatorWith().authenticate(admin.token);

    expect(auth).toMatchObject({ userId: admin.userId, projectId: admin.projectId, isAdmin: true });
    expect([...(auth?.roles ?? [])].sort()).toEqual(['admin', 'member', 'reader']);
  });

  it('given a member token, names a member of demo who is not an admin', async () => {
    const member = await issueToken('MEMBER');

    const auth = await authenticatorWith().authenticate(member.token);

    expect(auth).toMatchObject({
      userId: member.userId,
      projectId: member.projectId,
      isAdmin: false,
    });
    // Keystone expands implied roles: member implies reader.
    expect([...(auth?.roles ?? [])].sort()).toEqual(['member', 'reader']);
  });

  it('given a reader token, names a reader only', async () => {
    const reader = await issueToken('READER');

    const auth = await authenticatorWith().authenticate(reader.token);

    expect(auth).toMatchObject({ projectId: reader.projectId, roles: ['reader'], isAdmin: false });
  });

  it('given garbage, an unscoped token or a revoked token, names nobody (401)', async () => {
    const authenticator = authenticatorWith();
    const admin = await issueToken('ADMIN');
    const unscoped = await issueToken('MEMBER', false);
    const revoked = await issueToken('MEMBER');
    await revokeToken(admin.token, revoked.token);

    expect(unscoped.projectId).toBeUndefined();
    await expect(authenticator.authenticate('gAAAAABgarbage')).resolves.toBeUndefined();
    await expect(authenticator.authenticate(unscoped.token)).resolves.toBeUndefined();
    await expect(authenticator.authenticate(revoked.token)).resolves.toBeUndefined();
    await expect(authenticator.authenticate(undefined)).resolves.toBeUndefined();
  });

  it('given repeated tokens, asks Keystone once per token until the cache time passes', async () => {
    const clock = { offsetMs: 0 };
    const recorder = recordingFetch();
    const authenticator = authenticatorWith(
      { fetch: recorder.fetch, now: () => Date.now() + clock.offsetMs },
      300,
    );
    const member = await issueToken('MEMBER');

    for (let i = 0; i < 3; i++) await authenticator.authenticate(member.token);
    await Promise.all([1, 2, 3].map(() => authenticator.authenticate('not-a-token')));
    await authenticator.authenticate('not-a-token');
    expect(requests(recorder.calls)).toEqual([
      'POST /v3/auth/tokens 201',
      'GET /v3/auth/tokens 200',
      'GET /v3/auth/tokens 404',
    ]);

    clock.offsetMs = 301_000;
    const auth = await authenticator.authenticate(member.token);

    expect(auth?.projectId).toBe(member.projectId);
    expect(requests(recorder.calls).slice(3)).toEqual(['GET /v3/auth/tokens 200']);
  });

  it('given concurrent requests with one new token, validates it once', async () => {
    const recorder = recordingFetch();
    const authenticator = authenticatorWith({ fetch: recorder.fetch });
    const member = await issueToken('MEMBER');

    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => authenticator.authenticate(member.token)),
    );

    expect(answers.map((a) => a?.userId)).toEqual(Array(4).fill(member.userId));
    expect(requests(recorder.calls)).toEqual([
      'POST /v3/auth/tokens 201',
      'GET /v3/auth/tokens 200',
    ]);
  });

  it('given the service token is about to expire, issues a new one first', async () => {
    const clock = { offsetMs: 0 };
    const recorder = recordingFetch();
    const authenticator = authenticatorWith({
      fetch: recorder.fetch,
      now: () => Date.now() + clock.offsetMs,
      serviceTokenMarginMs: 60_000,
    });
    await authenticator.authenticate((await issueToken('MEMBER')).token);

    // Keystone's tokens last an hour: 59 minutes and a half later, ours is within the margin.
    clock.offsetMs = 3_570_000;
    const reader = await issueToken('READER');
    const auth = await authenticator.authenticate(reader.token);

    expect(auth?.projectId).toBe(reader.projectId);
    expect(requests(recorder.calls)).toEqual([
      'POST /v3/auth/tokens 201',
      'GET /v3/auth/tokens 200',
      'POST /v3/auth/tokens 201',
      'GET /v3/auth/tokens 200',
    ]);
  });

  it('given Keystone revoked the service token, re-authenticates once and validates', async () => {
    const recorder = recordingFetch();
    const authenticator = authenticatorWith({ fetch: recorder.fetch });
    await authenticator.authenticate((await issueToken('MEMBER')).token);
    const serviceToken = recorder.calls[0]?.subjectToken as string;
    await revokeToken((await issueToken('ADMIN')).token, serviceToken);

    const reader = await issueToken('READER');
    const auth = await authenticator.authenticate(reader.token);

    expect(auth?.projectId).toBe(reader.projectId);
    expect(requests(recorder.calls).slice(2)).toEqual([
      'GET /v3/auth/tokens 401',
      'POST /v3/auth/tokens 201',
      'GET /v3/auth/tokens 200',
    ]);
  });

  it('given wrong service credentials, reports Keystone unavailable rather than refusing callers', async () => {
    const authenticator = new KeystoneAuthenticator({
      ...keystoneSettings(url),
      password: 'wrong',
    });
    const member = await issueToken('MEMBER');

    await expect(authenticator.authenticate(member.token)).rejects.toThrow(
      /Keystone refused the service user .* \(HTTP 401\)/,
    );
  });

  it('over HTTP, a member token passes authentication and a garbage token gets 401', async () => {
    const { app, url: base } = await startPipeline(authenticatorWith());
    try {
      const member = await issueToken('MEMBER');

      const passed = await fetch(`${base}/v2/shares`, {
        headers: { 'X-Auth-Token': member.token },
      });
      const refused = await fetch(`${base}/v2/shares`, { headers: { 'X-Auth-Token': 'garbage' } });

      expect(passed.status).toBe(404);
      expect(refused.status).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe('KeystoneAuthenticator when Keystone cannot answer', () => {
  let closedPort: number;
  let silent: net.Server;
  let silentPort: number;
  const heldSockets: net.Socket[] = [];

  beforeAll(async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    // Accepts connections and never answers: a hung Keystone.
    silent = net.createServer((socket) => heldSockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    for (const socket of heldSockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('given nothing listens, fails with KeystoneUnavailableError', async () => {
    const authenticator = new KeystoneAuthenticator(
      keystoneSettings(`http://127.0.0.1:${closedPort}`),
    );

    await expect(authenticator.authenticate('a-token')).rejects.toThrow(KeystoneUnavailableError);
    await expect(authenticator.authenticate('a-token')).rejects.toThrow(
      /unreachable.*ECONNREFUSED/,
    );
  });

  it('given Keystone hangs, gives up after the timeout', async () => {
    const authenticator = new KeystoneAuthenticator(
      keystoneSettings(`http://127.0.0.1:${silentPort}`),
      {
        timeoutMs: 200,
      },
    );
    const started = Date.now();

    await expect(authenticator.authenticate('a-token')).rejects.toThrow(KeystoneUnavailableError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("over HTTP, answers Manila's 503 fault, not 401 or 500", async () => {
    const authenticator = new KeystoneAuthenticator(
      keystoneSettings(`http://127.0.0.1:${closedPort}`),
    );
    const { app, url } = await startPipeline(authenticator);
    try {
      const response = await fetch(`${url}/v2/shares`, { headers: { 'X-Auth-Token': 'a-token' } });

      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        serviceUnavailable: {
          code: 503,
          message: 'The identity service is unavailable. Please try again later.',
        },
      });
    } finally {
      await app.close();
    }
  });
});
