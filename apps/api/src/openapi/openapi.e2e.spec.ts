import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfig } from '#hawser/platform';
import { createApiApp } from '../api.app.js';
import { HAWSER_OPENAPI_DOCUMENT } from './hawser-openapi.document.js';
import { checkAgainstSchema } from './test-support/schema-check.js';

const ADMIN = 'admin:11111111111111111111111111111111';
const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
type Document = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON

describe('GET /hawser/v1/openapi.json, and the admin API answering as it documents', () => {
  let app: NestExpressApplication;
  let url: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
    app = await createApiApp(loadConfig({ HAWSER_DATA_DIR: dataDir, HAWSER_AUTH: 'noauth' }), {
      logger: false,
    });
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, route: string, token: string | undefined, body?: unknown) => {
    const response = await fetch(`${url}${route}`, {
      method,
      headers: {
        ...(token && { 'X-Auth-Token': token }),
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
        'X-OpenStack-Manila-API-Version': '2.72',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Document };
  };

  /** The answer must be one the document lists for that operation, with a body of its schema. */
  const expectDocumented = async (
    method: string,
    template: string,
    route: string,
    token?: string,
  ) => {
    const answer = await call(method, route, token);
    const document = HAWSER_OPENAPI_DOCUMENT as Document;
    const response =
      document.paths[template][method.toLowerCase()].responses[String(answer.status)];
    expect({ route, status: answer.status, documented: response !== undefined }).toEqual({
      route,
      status: answer.status,
      documented: true,
    });
    const schema = response.content['application/json'].schema;
    expect({ route, problems: checkAgainstSchema(document, schema, answer.body) }).toEqual({
      route,
      problems: [],
    });
    return answer;
  };

  it('serves the document without a token, while the operations it lists still need one', async () => {
    const served = await call('GET', '/hawser/v1/openapi.json', undefined);
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(JSON.stringify(HAWSER_OPENAPI_DOCUMENT)));
    expect(served.body.openapi).toBe('3.1.0');
    await expectDocumented('GET', '/hawser/v1/events', '/hawser/v1/events', undefined);
    await expectDocumented('GET', '/hawser/v1/events', '/hawser/v1/events', MEMBER);
  });

  it('answers every operation with a status and a body the document describes', async () => {
    const type = await call('POST', '/v2/types', ADMIN, {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'False' } },
    });
    expect(type.status).toBe(200);
    const typeId = type.body.share_type.id as string;

    const events = await expectDocumented(
      'GET',
      '/hawser/v1/events',
      '/hawser/v1/events?limit=1',
      ADMIN,
    );
    expect(events.body.events).toHaveLength(1);
    await expectDocumented('GET', '/hawser/v1/events', '/hawser/v1/events?limit=0', ADMIN);
    const stream = await expectDocumented(
      'GET',
      '/hawser/v1/streams/{streamId}',
      `/hawser/v1/streams/sharetype-${typeId}?direction=backwards`,
      ADMIN,
    );
    expect(stream.body.events[0].type).toBe('ShareTypeCreated');
    await expectDocumented(
      'GET',
      '/hawser/v1/streams/{streamId}',
      '/hawser/v1/streams/x?direction=sideways',
      ADMIN,
    );
    const projections = await expectDocumented(
      'GET',
      '/hawser/v1/projections',
      '/hawser/v1/projections',
      ADMIN,
    );
    const name = projections.body.projections[0].name as string;
    const rebuilt = await expectDocumented(
      'POST',
      '/hawser/v1/projections/{name}/rebuild',
      `/hawser/v1/projections/${name}/rebuild`,
      ADMIN,
    );
    expect(rebuilt.status).toBe(200);
    await expectDocumented(
      'POST',
      '/hawser/v1/projections/{name}/rebuild',
      '/hawser/v1/projections/no-such-projection/rebuild',
      ADMIN,
    );
    await expectDocumented('GET', '/hawser/v1/parked-events', '/hawser/v1/parked-events', ADMIN);
    const retry = await expectDocumented(
      'POST',
      '/hawser/v1/parked-events/{id}/retry',
      '/hawser/v1/parked-events/nobody:nothing/retry',
      ADMIN,
    );
    expect(retry.status).toBe(404);
    const permissions = await expectDocumented(
      'GET',
      '/hawser/v1/permissions',
      '/hawser/v1/permissions',
      MEMBER,
    );
    expect(permissions.body.permissions.rules['share:create']).toBe(true);
    await expectDocumented('GET', '/hawser/v1/permissions', '/hawser/v1/permissions', undefined);
  });
});
