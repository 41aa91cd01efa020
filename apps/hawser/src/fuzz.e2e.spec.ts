import http from 'node:http';
import {
  ADMIN_TOKEN,
  eventually,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';
import { fuzzSettings, randomFrom, type Random } from './test-support/seeded-random.js';

/*
 * Thousands of malformed requests, generated from a seed, against a real Hawser holding a share
 * type and a share. Whatever they are, the server must not fail (no 5xx), must answer every
 * client error with Manila's fault body, and must not change anything: the global log and the
 * share listing are the same before and after. HAWSER_FUZZ_SEED and HAWSER_FUZZ_COUNT vary it.
 */

const { seed: SEED, count: COUNT } = fuzzSettings(20_261_122, 3_000);
const PARALLEL = 8;

const PROJECT = '11111111111111111111111111111111';
const OTHER_PROJECT = '99999999999999999999999999999999';
const MEMBER_TOKEN = `alice:${OTHER_PROJECT}:member,reader`;

/** Manila's fault names by status (`api/openstack/wsgi.py Fault`); any other status is computeFault. */
const FAULT_NAMES: Readonly<Record<number, string>> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'itemNotFound',
  405: 'badMethod',
  409: 'conflictingRequest',
  413: 'overLimit',
  415: 'badMediaType',
};

interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Which generator made it: the place to look when it fails. */
  readonly kind: string;
}

interface FuzzAnswer {
  readonly status: number;
  readonly text: string;
  readonly requestId: string | undefined;
}

const FAKE_UUID = 'deadbeef-dead-4eef-8eef-deadbeefdead';
const ODD_IDS = [
  FAKE_UUID,
  'not-a-uuid',
  '0',
  '-1',
  '1e999',
  'x'.repeat(300),
  '%ZZ',
  '%00',
  '%2e%2e',
  '%2F',
  '..',
  "'or'1'='1",
  '%7B%7D',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '%F0%9F%A6%80',
];
const ODD_VALUES: readonly unknown[] = [
  -1,
  0,
  1.5,
  2 ** 53 + 1,
  1e308,
  -1e308,
  'abc',
  '',
  null,
  true,
  [],
  [1, 2],
  {},
  { nested: { deeper: [null] } },
  'x'.repeat(1000),
  '1e3',
  '0x10',
];
const ODD_QUERIES = [
  'limit=-1',
  'limit=abc',
  'limit=1e999',
  'limit=99999999999999999999999',
  'limit=0',
  'limit=1&limit=2',
  'offset=-5',
  'offset=abc',
  'offset=1e999',
  'marker=nope',
  `marker=${FAKE_UUID}`,
  'sort_key=__proto__',
  'sort_key=constructor',
  'sort_key=nope',
  'sort_dir=sideways',
  'sort_dir=asc&sort_dir=desc',
  'is_public=maybe',
  'is_public=true&is_public=false',
  'all_tenants=yes',
  'all_tenants=1&project_id=x&project_id=y',
  'metadata={bad',
  'metadata=[1,2]',
  "metadata={'__proto__':'x'}",
  'metadata=null',
  'name~=%25',
  'name~=%',
  'name=a&name=b',
  'status[]=x',
  'status[a]=b',
  'with_count=maybe',
  'with_count=1&with_count=2',
  'is_soft_deleted=maybe',
  'share_type=nope',
  'share_type_id=a&share_type_id=b',
  'host=%28',
  'pool=%28%28',
  'after=-1',
  'after=abc',
  'after=1e999',
  'from_revision=-1',
  'direction=sideways',
  'direction=forwards&direction=backwards',
  'stream_prefix=share-&stream_prefix=type-',
  'event_type=a&event_type=b',
  'created_since=yesterday',
  'created_before=2026-13-45',
  'share_id=a&share_id=b',
  'extra_specs={bad',
  'extra_specs=[1]',
  'export_location=%00',
  '%ZZ=1',
  'a=%ZZ',
  '=',
  '&&&',
  'x'.repeat(3000),
];
const BAD_VERSIONS = ['latest', '2.07', '3.0', '2.999', '1.0', '2', 'abc', '2.1.1', '2.-1', '0.0'];
const BAD_TOKENS = [undefined, '', ':', 'x:', ':y', 'nocolon', '::', 'n'.repeat(5000)];
const MALFORMED_JSON = [
  '{',
  '{"share":',
  '[1,]',
  "{'a':1}",
  '{"a":1}}',
  'nul',
  '5',
  '"text"',
  'true',
  'null',
  '\u0000',
  '{"a":NaN}',
  '<xml/>',
];

interface World {
  readonly shareId: string;
  readonly typeId: string;
  readonly typeName: string;
}

/** Routes that read, with `{id}` / `{key}` / `{project}` / `{name}` to fill. */
const READ_ROUTES = [
  '/',
  '/v2/',
  '/healthcheck',
  '/v2/types',
  '/v2/types/default',
  '/v2/types/{type}',
  '/v2/types/{id}',
  '/v2/types/{type}/extra_specs',
  '/v2/types/{type}/extra_specs/{key}',
  '/v2/shares',
  '/v2/shares/detail',
  '/v2/shares/{share}',
  '/v2/shares/{id}',
  '/v2/shares/{share}/export_locations',
  '/v2/shares/{share}/metadata',
  '/v2/shares/{share}/metadata/{key}',
  '/v2/shares/{id}/metadata/{key}',
  '/v2/availability-zones',
  '/v2/os-availability-zone',
  '/v2/snapshots',
  '/v2/snapshots/detail',
  '/v2/snapshots/{id}',
  '/v2/share-access-rules',
  '/v2/share-access-rules/{id}',
  '/v2/scheduler-stats/pools',
  '/v2/scheduler-stats/pools/detail',
  '/v2/services',
  '/v2/quota-sets/{project}',
  '/v2/quota-sets/{project}/detail',
  '/v2/quota-sets/{project}/defaults',
  '/v2/messages',
  '/v2/messages/{id}',
  '/v2/share_instances',
  '/v2/share_instances/{id}',
  '/v2/shares/{share}/instances',
  '/hawser/v1/events',
  '/hawser/v1/streams/{id}',
  '/hawser/v1/projections',
  '/hawser/v1/parked-events',
  '/hawser/v1/openapi.json',
  '/v2/nothing-here',
  '/v3/shares',
  '/v2/shares/{share}/nothing/here',
  '/hawser/v1/nothing',
];

/** Requests that WOULD change state, used only with a broken envelope that must stop them. */
const writesThatWouldWork = (w: World): [string, string, unknown][] => [
  ['DELETE', `/v2/shares/${w.shareId}`, undefined],
  ['POST', `/v2/shares/${w.shareId}/action`, { force_delete: null }],
  ['PUT', `/v2/shares/${w.shareId}`, { share: { display_name: 'renamed' } }],
  ['POST', '/v2/shares', { share: { share_proto: 'NFS', size: 1, share_type: w.typeName } }],
  [
    'POST',
    '/v2/types',
    { share_type: { name: 'fuzzed', extra_specs: { driver_handles_share_servers: 'False' } } },
  ],
  ['POST', `/v2/shares/${w.shareId}/metadata`, { metadata: { k: 'v' } }],
  ['PUT', `/v2/shares/${w.shareId}/metadata`, { metadata: {} }],
  ['POST', `/v2/types/${w.typeId}/extra_specs`, { extra_specs: { k: 'v' } }],
  ['POST', '/v2/snapshots', { snapshot: { share_id: w.shareId } }],
  [
    'POST',
    `/v2/shares/${w.shareId}/action`,
    { allow_access: { access_type: 'ip', access_to: '10.0.0.1', access_level: 'rw' } },
  ],
  ['PUT', `/v2/quota-sets/${PROJECT}`, { quota_set: { shares: 7 } }],
  ['DELETE', `/v2/quota-sets/${PROJECT}`, undefined],
];

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length === 0;

/** Writes on the real share and type whose bodies are wrong in one place each. */
const invalidWrites = (w: World, r: Random): [string, string, unknown] => {
  const odd = r.pick(ODD_VALUES);
  const share = `/v2/shares/${w.shareId}`;
  const type = `/v2/types/${w.typeId}`;
  const choices: (() => [string, string, unknown])[] = [
    () => [
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: odd, share_type: w.typeName } },
    ],
    () => ['POST', '/v2/shares', { share: { share_proto: odd, size: 1, share_type: w.typeName } }],
    () => [
      'POST',
      '/v2/shares',
      { share: { share_proto: 'NFS', size: 1, share_type: `no-${r.next()}` } },
    ],
    () => [
      'POST',
      '/v2/shares',
      {
        share: {
          share_proto: 'NFS',
          size: 1,
          share_type: w.typeName,
          availability_zone: 'az-none',
        },
      },
    ],
    () => [
      'POST',
      '/v2/shares',
      {
        share: {
          share_proto: 'NFS',
          size: 1,
          share_type: w.typeName,
          metadata: { k: odd === 'abc' ? 5 : [odd] },
        },
      },
    ],
    () => ['POST', '/v2/shares', { share: odd }],
    () => ['POST', '/v2/shares', { shares: { share_proto: 'NFS', size: 1 } }],
    () => [
      'POST',
      '/v2/types',
      {
        share_type: {
          name: r.pick([null, 5, '', 'n'.repeat(256), [], {}]),
          extra_specs: { driver_handles_share_servers: 'False' },
        },
      },
    ],
    () => [
      'POST',
      '/v2/types',
      {
        share_type: {
          name: `t-${r.next()}`,
          extra_specs: r.pick([
            [],
            'x',
            { k: 5 },
            { k: null },
            { driver_handles_share_servers: 'maybe' },
            {},
          ]),
        },
      },
    ],
    () => [
      'POST',
      '/v2/types',
      {
        share_type: {
          name: `t-${r.next()}`,
          extra_specs: { driver_handles_share_servers: 'False' },
          'share_type_access:is_public': 'maybe',
        },
      },
    ],
    () => [
      'POST',
      `${share}/action`,
      r.pick([
        {},
        { a: {}, b: {} },
        [],
        'x',
        5,
        null,
        { fly: {} },
        JSON.parse('{"__proto__":{}}'),
        { constructor: {} },
        { 'os-force_delete': null },
      ]),
    ],
    () => [
      'POST',
      `${share}/action`,
      { reset_status: r.pick([null, 5, {}, { status: 5 }, { status: 'bogus' }, { status: odd }]) },
    ],
    () => [
      'POST',
      `${share}/action`,
      { [r.pick(['extend', 'shrink'])]: { new_size: r.pick([-1, 0, 1, 'x', null, 1.5, odd]) } },
    ],
    () => [
      'POST',
      `${share}/action`,
      {
        allow_access: r.pick([
          null,
          {},
          { access_type: 'bogus', access_to: 'x' },
          { access_type: 'ip', access_to: '999.1.1.1' },
          { access_type: 'ip', access_to: '10.0.0.1', access_level: 'admin' },
          { access_type: 'ip', access_to: odd },
        ]),
      },
    ],
    () => ['POST', `${share}/action`, { deny_access: { access_id: r.pick([FAKE_UUID, odd]) } }],
    () => [
      'PUT',
      share,
      r.pick([
        {},
        { share: [] },
        { share: { is_public: 'maybe' } },
        { share: { display_name: 5 } },
        { share: { display_name: odd === '' ? 7 : [odd] } },
      ]),
    ],
    () => {
      const method = r.pick(['POST', 'PUT']);
      // A PUT replaces all the share's metadata, so an empty object clears it: a valid write.
      const wrapped = method === 'PUT' && isEmptyObject(odd) ? [odd] : odd;
      return [
        method,
        `${share}/metadata`,
        r.pick([
          {},
          { metadata: [] },
          { metadata: 'x' },
          { metadata: { k: 5 } },
          { metadata: { k: odd === 'abc' ? null : [odd] } },
          { metadata: { '': 'v' } },
          { metadata: { ['k'.repeat(256)]: 'v' } },
          { metadata: wrapped },
        ]),
      ];
    },
    () => [
      'DELETE',
      `${share}/metadata/${r.pick(['nothing', 'constructor', '__proto__', 'toString'])}`,
      undefined,
    ],
    () => [
      'POST',
      `${type}/extra_specs`,
      r.pick([
        {},
        { extra_specs: [] },
        { extra_specs: { k: 5 } },
        { extra_specs: { 'bad key!': 'v' } },
        { extra_specs: { driver_handles_share_servers: 'maybe' } },
        { extra_specs: { snapshot_support: 'maybe' } },
        { extra_specs: { k: 'v'.repeat(256) } },
        { extra_specs: odd },
      ]),
    ],
    () => [
      'PUT',
      type,
      r.pick([
        {},
        { share_type: {} },
        { share_type: { name: 5 } },
        { share_type: { 'share_type_access:is_public': 'maybe' } },
        { share_type: { description: 5 } },
        { share_type: odd },
        { volume_type: odd },
      ]),
    ],
    () => [
      'DELETE',
      `${type}/extra_specs/${r.pick(['driver_handles_share_servers', 'nothing', 'constructor', '__proto__'])}`,
      undefined,
    ],
    () => ['DELETE', type, undefined],
    () => [
      'POST',
      '/v2/snapshots',
      r.pick([
        {},
        { snapshot: {} },
        { snapshot: { share_id: FAKE_UUID } },
        { snapshot: { share_id: odd } },
        { snapshot: odd },
      ]),
    ],
    () => ['POST', '/v2/share-replicas', r.pick([{}, { share_replica: odd }])],
    () => ['POST', '/v2/types', r.pick([{ share_type: odd }, { volume_type: odd }])],
    () => [
      'PUT',
      `/v2/quota-sets/${PROJECT}`,
      r.pick([
        {},
        { quota_set: { shares: 'many' } },
        { quota_set: { bogus_key: 1 } },
        { quota_set: { shares: -5 } },
        { quota_set: odd },
      ]),
    ],
    () => [
      r.pick(['PUT', 'DELETE', 'POST']),
      `/v2/${r.pick(['shares', 'types', 'snapshots', 'messages', 'share-access-rules'])}/${r.pick(ODD_IDS)}`,
      { x: odd },
    ],
    () => ['POST', `/v2/shares/${r.pick(ODD_IDS)}/action`, { force_delete: null }],
    () => ['POST', `/hawser/v1/projections/${r.pick(ODD_IDS)}/rebuild`, undefined],
    () => ['POST', `/hawser/v1/parked-events/${r.pick(ODD_IDS)}/retry`, undefined],
  ];
  return r.pick(choices)();
};

const WRONG_METHODS: [string, string][] = [
  ['DELETE', '/v2/shares'],
  ['PUT', '/v2/shares'],
  ['PATCH', '/v2/shares/{id}'],
  ['DELETE', '/v2/shares/detail'],
  ['POST', '/v2/shares/detail'],
  ['PUT', '/v2/types'],
  ['DELETE', '/v2/types'],
  ['PATCH', '/v2/types/{id}'],
  ['POST', '/v2/availability-zones'],
  ['DELETE', '/v2/availability-zones'],
  ['POST', '/v2/scheduler-stats/pools'],
  ['POST', '/hawser/v1/events'],
  ['DELETE', '/hawser/v1/events'],
  ['PUT', '/hawser/v1/projections'],
  ['GET', '/hawser/v1/projections/{id}/rebuild'],
  ['GET', '/hawser/v1/parked-events/{id}/retry'],
  ['DELETE', '/hawser/v1/streams/{id}'],
  ['POST', '/hawser/v1/openapi.json'],
  ['POST', '/'],
  ['DELETE', '/healthcheck'],
  ['OPTIONS', '/v2/shares'],
  ['HEAD', '/v2/shares/{id}'],
  ['GET', '/v2/shares/{id}/action'],
  ['PUT', '/v2/shares/{id}/action'],
];

const fill = (route: string, w: World, r: Random) =>
  route
    .replace('{share}', w.shareId)
    .replace('{type}', w.typeId)
    .replace('{project}', r.pick([PROJECT, OTHER_PROJECT, 'not-hex', '%ZZ', 'x'.repeat(300)]))
    .replace(/\{(id|key|name)\}/g, () => r.pick(ODD_IDS));

const headersFor = (token: string | undefined, version: string | undefined = '2.72') => ({
  ...(token !== undefined && { 'X-Auth-Token': token }),
  ...(version !== undefined && { 'X-OpenStack-Manila-API-Version': version }),
});

const jsonBody = (body: unknown) =>
  body === undefined ? {} : { body: JSON.stringify(body), contentType: 'application/json' };

const generate = (w: World, r: Random): FuzzRequest => {
  const roll = r.next();
  if (roll < 0.3) {
    // A read with odd ids and an odd query string, as an admin, a member or nobody.
    const route = fill(r.pick(READ_ROUTES), w, r);
    const query = Array.from({ length: 1 + Math.floor(r.next() * 3) }, () => r.pick(ODD_QUERIES));
    return {
      kind: 'read',
      method: 'GET',
      path: `${route}?${query.join('&')}`,
      headers: headersFor(r.pick([ADMIN_TOKEN, ADMIN_TOKEN, MEMBER_TOKEN, undefined])),
    };
  }
  if (roll < 0.6) {
    const [method, path, body] = invalidWrites(w, r);
    const { body: text } = jsonBody(body);
    return {
      kind: 'invalid-write',
      method,
      path,
      headers: {
        ...headersFor(r.pick([ADMIN_TOKEN, ADMIN_TOKEN, MEMBER_TOKEN])),
        ...(text && { 'Content-Type': 'application/json' }),
      },
      ...(text !== undefined && { body: text }),
    };
  }
  if (roll < 0.9) {
    // A write that would work, sent with one thing wrong that must stop it before it acts.
    const [method, path, body] = r.pick(writesThatWouldWork(w));
    const text = body === undefined ? undefined : JSON.stringify(body);
    const withJson = (t: string | undefined) => (t === undefined ? {} : { body: t });
    const breakers: (() => FuzzRequest)[] = [
      () => ({
        kind: 'bad-token',
        method,
        path,
        headers: headersFor(r.pick(BAD_TOKENS)),
        ...withJson(text),
      }),
      () => ({
        kind: 'bad-version',
        method,
        path,
        headers: headersFor(ADMIN_TOKEN, r.pick(BAD_VERSIONS)),
        ...withJson(text),
      }),
      () => ({
        kind: 'malformed-json',
        method,
        path,
        headers: { ...headersFor(ADMIN_TOKEN), 'Content-Type': 'application/json' },
        body: r.pick(MALFORMED_JSON),
      }),
      () => ({
        kind: 'over-limit',
        method,
        path,
        headers: { ...headersFor(ADMIN_TOKEN), 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...(body as object), pad: 'p'.repeat(300 * 1024) }),
      }),
      () => ({
        kind: 'other-project-url',
        method,
        path: path.replace('/v2/', `/v2/${OTHER_PROJECT}/`),
        headers: headersFor(ADMIN_TOKEN),
        ...withJson(text),
      }),
    ];
    // Another project's member may create shares of its own: only the other writes must fail.
    if (path !== '/v2/shares') {
      breakers.push(() => ({
        kind: 'member',
        method,
        path,
        headers: headersFor(MEMBER_TOKEN),
        ...withJson(text),
      }));
    }
    return r.pick(breakers)();
  }
  const [method, route] = r.pick(WRONG_METHODS);
  return {
    kind: 'wrong-method',
    method,
    path: fill(route, w, r),
    headers: headersFor(ADMIN_TOKEN),
  };
};

const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL });

const send = (base: URL, request: FuzzRequest): Promise<FuzzAnswer> =>
  new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      ...request.headers,
      Connection: 'keep-alive',
    };
    if (request.body !== undefined) {
      headers['Content-Length'] = Buffer.byteLength(request.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: request.method,
        path: request.path,
        headers,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString(),
            requestId: res.headers['x-openstack-request-id'] as string | undefined,
          }),
        );
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(request.body);
  });

/** What is wrong with an answer, or undefined when it is one Manila could give. */
const problemWith = (request: FuzzRequest, answer: FuzzAnswer): string | undefined => {
  if (answer.status >= 500) return `server error ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status < 400 || request.method === 'HEAD') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `${answer.status} without a JSON body: ${answer.text.slice(0, 200)}`;
  }
  const entries = Object.entries((body ?? {}) as Record<string, unknown>);
  const expected = FAULT_NAMES[answer.status] ?? 'computeFault';
  const [name, fault] = entries[0] ?? [];
  const { code, message } = (fault ?? {}) as { code?: unknown; message?: unknown };
  if (
    entries.length !== 1 ||
    name !== expected ||
    code !== answer.status ||
    typeof message !== 'string'
  ) {
    return `${answer.status} body is not {"${expected}": {code, message}}: ${answer.text.slice(0, 300)}`;
  }
  return undefined;
};

const signatureOf = (request: FuzzRequest, problem: string) =>
  [
    request.kind,
    request.method,
    request.path.split('?')[0]!.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}'),
    problem.slice(0, 40),
  ].join(' ');

const describeRequest = (r: FuzzRequest) =>
  `[${r.kind}] ${r.method} ${r.path.slice(0, 200)} headers=${JSON.stringify(r.headers).slice(0, 200)}` +
  (r.body === undefined ? '' : ` body=${r.body.slice(0, 200)}`);

describe(`fuzz: ${COUNT} malformed requests (seed ${SEED}) against a real Hawser`, () => {
  let hawser: HawserTestServer;
  let world: World;

  /** Everything a client can see changing: the whole log and every share of every project. */
  const snapshotState = async () => {
    const events: unknown[] = [];
    for (let after: number | null = 0; after !== null;) {
      const page = await hawser.request('GET', `/hawser/v1/events?limit=1000&after=${after}`);
      expect(page.status).toBe(200);
      events.push(...page.body.events);
      after = page.body.next_after;
    }
    const shares = await hawser.request('GET', '/v2/shares/detail?all_tenants=1&sort_key=id');
    const types = await hawser.request('GET', '/v2/types?is_public=all');
    expect([shares.status, types.status]).toEqual([200, 200]);
    return { events, shares: shares.body.shares, types: types.body.share_types };
  };

  beforeAll(async () => {
    hawser = await startHawser();
    const type = await hawser.request('POST', '/v2/types', {
      share_type: {
        name: 'fuzz-type',
        extra_specs: { driver_handles_share_servers: 'False', snapshot_support: 'True' },
      },
    });
    const share = await hawser.request('POST', '/v2/shares', {
      share: {
        share_proto: 'NFS',
        size: 1,
        name: 'fuzzed-share',
        share_type: 'fuzz-type',
        metadata: { team: 'a' },
      },
    });
    expect([type.status, share.status]).toEqual([200, 200]);
    world = {
      typeId: type.body.share_type.id,
      typeName: 'fuzz-type',
      shareId: share.body.share.id,
    };
    await eventually(
      async () => {
        const s = await hawser.request('GET', `/v2/shares/${world.shareId}`);
        return s.body.share.status === 'available' ? true : undefined;
      },
      10_000,
      'the share to become available',
    );
  });
  afterAll(async () => {
    agent.destroy();
    await hawser.close();
  });

  it('reads a repeated query key as its last value, as webob does for Manila', async () => {
    const shares = await hawser.request('GET', '/v2/shares?name=nothing&name=fuzzed-share');
    expect(shares.body.shares.map((x: { id: string }) => x.id)).toEqual([world.shareId]);
    const events = await hawser.request(
      'GET',
      '/hawser/v1/events?event_type=Nothing&event_type=ShareTypeCreated',
    );
    expect(events.body.events.map((e: { type: string }) => e.type)).toEqual(['ShareTypeCreated']);
  });

  it('answers every one without a server error, with Manila fault bodies, and changes nothing', async () => {
    const before = await snapshotState();
    const random = randomFrom(SEED);
    const requests = Array.from({ length: COUNT }, () => generate(world, random));
    const base = new URL(hawser.url);
    /** One example per kind of problem: the same fault on another id or query is no news. */
    const problems = new Map<string, string>();
    const statuses = new Map<number, number>();
    const byRequestId = new Map<string, FuzzRequest>();
    for (let i = 0; i < requests.length; i += PARALLEL) {
      const batch = requests.slice(i, i + PARALLEL);
      const answers = await Promise.all(batch.map((r) => send(base, r)));
      answers.forEach((answer, j) => {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.requestId) byRequestId.set(answer.requestId, batch[j]!);
        const problem = problemWith(batch[j]!, answer);
        if (problem)
          problems.set(
            signatureOf(batch[j]!, problem),
            `${describeRequest(batch[j]!)}\n  -> ${problem}`,
          );
      });
    }
    const after = await snapshotState();

    // Each appended event, with the request that caused it (its request id is in the metadata).
    const added = (after.events as { type: string; stream_id: string; request_id: string }[])
      .slice(before.events.length)
      .map((e) => {
        const cause = byRequestId.get(e.request_id);
        return `${e.type} on ${e.stream_id} <- ${cause ? describeRequest(cause) : e.request_id}`;
      });
    expect({ problems: [...problems.values()], eventsAppended: added }).toEqual({
      problems: [],
      eventsAppended: [],
    });
    expect(after).toEqual(before);
    // The mix reached the handlers, not only the envelope checks.
    expect([...statuses.keys()]).toEqual(
      expect.arrayContaining([400, 401, 403, 404, 406, 413, 422]),
    );
  }, 60_000);
});
