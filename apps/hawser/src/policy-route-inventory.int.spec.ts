import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { isDeepStrictEqual as isEqual } from 'node:util';
import type { Express } from 'express';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { loadPolicy } from '#hawser/policy';
import { MAX_VERSION } from '../../api/src/http/microversion.js';
import {
  graphqlFields,
  restRoutes,
  type RouteEntry,
} from '../../api/src/policy/test-support/route-inventory.js';
import {
  ADMIN_TOKEN,
  startHawser,
  type HawserTestServer,
} from './test-support/hawser-test-server.js';

/** What Manila (and Hawser's own API description) serve without a token; nothing else may be. */
const PUBLIC_ROUTES = [
  'GET /',
  'GET /v2',
  'GET /healthcheck',
  'GET /health/live',
  'GET /health/ready',
  'GET /hawser/v1/openapi.json',
];

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** A layer as the router tries it: `match` says whether a request's path is the layer's. */
interface RoutingLayer extends ExpressLayer {
  match(path: string): boolean;
}

describe('Route inventory: every route, Manila action and GraphQL field names its policy rule', () => {
  let hawser: HawserTestServer;
  const policy = loadPolicy({ enforceNewDefaults: true });
  const routes = restRoutes();
  const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

  beforeAll(async () => {
    hawser = await startHawser();
  });

  afterAll(async () => {
    await hawser.close();
  });

  it('lists exactly the routes Express serves', () => {
    const express = hawser.app.getHttpAdapter().getInstance() as Express;
    const registered = (express.router.stack as ExpressLayer[]).flatMap((layer) =>
      layer.route
        ? Object.keys(layer.route.methods).map((m) => key(m, layer.route?.path ?? ''))
        : [],
    );
    // Express serves `/v2/` as `/v2`, with its own handler.
    const declared = routes.map((r) => key(r.method, r.path.replace(/(.)\/$/, '$1')));
    expect([...registered].sort()).toEqual(declared.sort());
    expect(registered.length).toBeGreaterThan(80);
  });

  it('reaches every route: none is answered by a route registered before it', () => {
    const express = hawser.app.getHttpAdapter().getInstance() as Express;
    const stack = express.router.stack as unknown as RoutingLayer[];
    const layers = stack.filter((layer) => layer.route);
    // A request meant for each route, its parameters filled with a value no static segment has.
    const shadowed = layers.flatMap((layer) => {
      const route = layer.route!;
      const url = route.path.replace(/:\w+/g, 'an-id-0');
      return Object.keys(route.methods).flatMap((method) => {
        const first = layers.find((other) => other.route!.methods[method] && other.match(url));
        return first === layer ? [] : [`${key(method, route.path)} -> ${first?.route?.path}`];
      });
    });
    expect(shadowed).toEqual([]);
    expect(layers.length).toBeGreaterThan(80);
  });

  it('gives every route a rule the engine knows, or @Public for the documents Manila serves without a token', () => {
    const undeclared = routes.filter((r) => !r.isPublic && !r.policy && !r.actions);
    expect(
      undeclared.map((r) => `${key(r.method, r.path)} (${r.controller}.${r.handler})`),
    ).toEqual([]);
    expect(
      routes
        .filter((r) => r.isPublic)
        .map((r) => key(r.method, r.path))
        .sort(),
    ).toEqual([...PUBLIC_ROUTES].sort());
    const unknown = routes.flatMap((r) =>
      r.policy && !policy.has(r.policy.rule) ? [r.policy.rule] : [],
    );
    expect(unknown).toEqual([]);
  });

  it('gives every Manila action a rule the engine knows, and its microversion range', () => {
    const actionRoutes = routes.filter((r) => r.actions);
    expect(actionRoutes.map((r) => key(r.method, r.path)).sort()).toEqual([
      'POST /v2/share-replicas/:id/action',
      'POST /v2/share_instances/:id/action',
      'POST /v2/shares/:id/action',
      'POST /v2/snapshot-instances/:id/action',
      'POST /v2/snapshots/:id/action',
      'POST /v2/types/:id/action',
    ]);
    const table = actionRoutes.flatMap((r) =>
      (r.actions ?? []).map((a) => ({
        route: r.path,
        action: a.name,
        range: `${a.since ?? '2.0'}-${a.until ?? 'latest'}`,
        rule: a.policy?.rule,
      })),
    );
    expect(table.filter((row) => row.rule === undefined || !policy.has(row.rule))).toEqual([]);
    expect(table).toContainEqual({
      route: '/v2/shares/:id/action',
      action: 'access_list',
      range: '2.0-2.44',
      rule: 'share:access_get_all',
    });
    expect(table).toContainEqual({
      route: '/v2/shares/:id/action',
      action: 'revert',
      range: '2.27-latest',
      rule: 'share:revert_to_snapshot',
    });
    for (const action of ['allow_access', 'deny_access']) {
      expect(table).toContainEqual({
        route: '/v2/snapshots/:id/action',
        action,
        range: '2.32-latest',
        rule: `share_snapshot:${action}`,
      });
    }
    expect(table).toContainEqual({
      route: '/v2/snapshots/:id/action',
      action: 'unmanage',
      range: '2.12-latest',
      rule: 'share_snapshot:unmanage_snapshot',
    });
    expect(table).toContainEqual({
      route: '/v2/shares/:id/action',
      action: 'unmanage',
      range: '2.7-latest',
      rule: 'share:unmanage',
    });
    expect(table.map((row) => `${row.route} ${row.action}`)).toEqual(
      expect.arrayContaining([
        '/v2/shares/:id/action allow_access',
        '/v2/shares/:id/action deny_access',
        '/v2/shares/:id/action extend',
        '/v2/share-replicas/:id/action promote',
        '/v2/types/:id/action addProjectAccess',
      ]),
    );
  });

  it('names a rule on every GraphQL query, subscription and field resolver, and covers every root field', () => {
    const fields = graphqlFields();
    expect(fields.filter((f) => !f.policy).map((f) => `${f.resolver}.${f.field}`)).toEqual([]);
    expect(
      fields.flatMap((f) => (f.policy && !policy.has(f.policy.rule) ? [f.policy.rule] : [])),
    ).toEqual([]);

    const schema = hawser.app.get(GraphQLSchemaHost).schema;
    const rootFields = [
      schema.getQueryType(),
      schema.getMutationType(),
      schema.getSubscriptionType(),
    ].flatMap((type) => (type ? Object.keys(type.getFields()) : []));
    const declared = new Set(fields.map((f) => f.field));
    expect(rootFields.filter((field) => !declared.has(field))).toEqual([]);
    expect(rootFields.length).toBeGreaterThanOrEqual(7);
  });
});

/**
 * Every route that Manila serves in some microversions only (reference 3.x); every other route
 * exists from 2.0 on. /os-quota-sets/{project}/detail exists in none: detail came in 2.25,
 * after /os-quota-sets left in 2.7.
 */
const VERSIONED_ROUTES: Record<string, string> = {
  'DELETE /v2/messages/:id': '2.37-latest',
  'DELETE /v2/os-quota-sets/:project': '2.0-2.6',
  'DELETE /v2/quota-sets/:project': '2.7-latest',
  'DELETE /v2/share-access-rules/:id/metadata/:key': '2.45-latest',
  'DELETE /v2/share-replicas/:id': '2.11-latest experimental<=2.55',
  'DELETE /v2/snapshots/:id/metadata/:key': '2.73-latest',
  'GET /v2/availability-zones': '2.7-latest',
  'GET /v2/messages': '2.37-latest',
  'GET /v2/messages/:id': '2.37-latest',
  'GET /v2/os-availability-zone': '2.0-2.6',
  'GET /v2/os-quota-class-sets/:className': '2.0-2.6',
  'GET /v2/os-quota-sets/:project': '2.0-2.6',
  'GET /v2/os-quota-sets/:project/defaults': '2.0-2.6',
  'GET /v2/os-quota-sets/:project/detail': '2.25-2.6',
  'GET /v2/os-services': '2.0-2.6',
  'GET /v2/quota-class-sets/:className': '2.7-latest',
  'GET /v2/quota-sets/:project': '2.7-latest',
  'GET /v2/quota-sets/:project/defaults': '2.7-latest',
  'GET /v2/quota-sets/:project/detail': '2.25-latest',
  'GET /v2/services': '2.7-latest',
  'GET /v2/share-access-rules': '2.45-latest',
  'GET /v2/share-access-rules/:id': '2.45-latest',
  'GET /v2/share-replicas': '2.11-latest experimental<=2.55',
  'GET /v2/share-replicas/:id': '2.11-latest experimental<=2.55',
  'GET /v2/share-replicas/:id/export-locations': '2.47-latest experimental<=2.55',
  'GET /v2/share-replicas/:id/export-locations/:locationId': '2.47-latest experimental<=2.55',
  'GET /v2/share-replicas/detail': '2.11-latest experimental<=2.55',
  'GET /v2/share_instances': '2.3-latest',
  'GET /v2/share_instances/:id': '2.3-latest',
  'GET /v2/share_instances/:id/export_locations': '2.9-latest',
  'GET /v2/share_instances/:id/export_locations/:locationId': '2.9-latest',
  'GET /v2/shares/:id/export_locations': '2.9-latest',
  'GET /v2/shares/:id/export_locations/:locationId': '2.9-latest',
  'GET /v2/shares/:shareId/instances': '2.3-latest',
  'GET /v2/snapshots/:id/export-locations': '2.32-latest',
  'GET /v2/snapshots/:id/export-locations/:locationId': '2.32-latest',
  'GET /v2/snapshots/:id/access-list': '2.32-latest',
  'GET /v2/snapshots/:id/metadata': '2.73-latest',
  'GET /v2/snapshots/:id/metadata/:key': '2.73-latest',
  'POST /v2/share-replicas': '2.11-latest experimental<=2.55',
  'POST /v2/share-replicas/:id/action': '2.11-latest experimental<=2.55',
  'POST /v2/share_instances/:id/action': '2.3-latest',
  'POST /v2/shares/manage': '2.7-latest',
  'POST /v2/snapshots/manage': '2.12-latest',
  'GET /v2/snapshot-instances': '2.19-latest',
  'GET /v2/snapshot-instances/detail': '2.19-latest',
  'GET /v2/snapshot-instances/:id': '2.19-latest',
  'GET /v2/snapshot-instances/:id/export-locations': '2.32-latest',
  'GET /v2/snapshot-instances/:id/export-locations/:locationId': '2.32-latest',
  'POST /v2/snapshot-instances/:id/action': '2.19-latest',
  'POST /v2/snapshots/:id/metadata': '2.73-latest',
  'PUT /v2/os-quota-class-sets/:className': '2.0-2.6',
  'PUT /v2/os-quota-sets/:project': '2.0-2.6',
  'PUT /v2/os-services/:action': '2.0-2.6',
  'PUT /v2/quota-class-sets/:className': '2.7-latest',
  'PUT /v2/quota-sets/:project': '2.7-latest',
  'PUT /v2/services/:action': '2.7-latest',
  'PUT /v2/share-access-rules/:id/metadata': '2.45-latest',
  'PUT /v2/snapshots/:id/metadata': '2.73-latest',
  'PUT /v2/types/:id': '2.50-latest',
};

/** A route's versions as one word: `since-until`, and `experimental<=X` when it has that rule. */
const rangeText = ({ versions }: RouteEntry): string =>
  `${versions.since ?? '2.0'}-${versions.until ?? 'latest'}${
    versions.experimentalUntil ? ` experimental<=${versions.experimentalUntil}` : ''
  }`;

const minorStep = (version: string, step: number): string => {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return `${major}.${minor + step}`;
};

const minorOf = (version: string): number => Number(version.split('.')[1]);

const API_SOURCES = fileURLToPath(new URL('../../api/src/', import.meta.url));

/** The only sources that may answer the route-not-in-version 404: the guard's and the filter's. */
const ANSWERS_ROUTE_NOT_IN_VERSION = [
  'policy/route-versions.ts',
  'http/manila-exception.filter.ts',
];

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const OTHER_READER = 'otto:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb:reader';

/** The same route at its own version, and at each version just outside its range. */
const probesOf = ({ versions }: RouteEntry) => {
  const { since, until, experimentalUntil } = versions;
  const needsHeader = experimentalUntil && minorOf(experimentalUntil) >= minorOf(since ?? '2.0');
  const outside = [
    ...(since ? [{ version: minorStep(since, -1), experimental: true }] : []),
    ...(until ? [{ version: minorStep(until, 1), experimental: true }] : []),
    ...(experimentalUntil && needsHeader
      ? [{ version: experimentalUntil, experimental: false }]
      : []),
  ];
  return { inside: { version: until ?? MAX_VERSION, experimental: true }, outside };
};

const ROUTE_NOT_IN_VERSION = {
  itemNotFound: { code: 404, message: 'The resource could not be found.' },
};

describe('Route inventory: the microversions of every route are declared and enforced before policy', () => {
  const routes = restRoutes();
  const versioned = routes.filter((r) => rangeText(r) !== '2.0-latest');

  it('declares the range of every route that does not exist in every microversion', () => {
    expect(
      Object.fromEntries(versioned.map((r) => [`${r.method} ${r.path}`, rangeText(r)])),
    ).toEqual(VERSIONED_ROUTES);
  });

  it('leaves no route gated inline: no handler throws the "resource could not be found" 404 itself', () => {
    const sources = fs
      .readdirSync(API_SOURCES, { recursive: true, encoding: 'utf8' })
      .filter(
        (file) =>
          file.endsWith('.ts') && !file.includes('.spec.') && !file.includes('test-support'),
      );
    const gatedInline = sources.filter((file) => {
      const text = fs.readFileSync(path.join(API_SOURCES, file), 'utf8');
      return (
        /if \([^;{]*atLeast\([^;{]*\)\s*\{?\s*throw notFound/.test(text) ||
        (text.includes(`'${ROUTE_NOT_IN_VERSION.itemNotFound.message}'`) &&
          !ANSWERS_ROUTE_NOT_IN_VERSION.includes(file))
      );
    });
    expect(gatedInline).toEqual([]);
    expect(sources.length).toBeGreaterThan(50);
  });

  describe('answered over HTTP', () => {
    let hawser: HawserTestServer;

    beforeAll(async () => {
      hawser = await startHawser();
    });

    afterAll(async () => {
      await hawser.close();
    });

    const call = (route: RouteEntry, token: string, version: string, experimental: boolean) =>
      hawser.request(
        route.method,
        route.path.replace(/:\w+/g, UNKNOWN_ID),
        route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        {
          token,
          version,
          headers: { 'X-OpenStack-Manila-API-Experimental': experimental ? 'True' : 'False' },
        },
      );

    it("answers Manila's 404 outside a route's versions to every caller, before any policy check", async () => {
      const wrong: string[] = [];
      for (const route of versioned) {
        for (const { version, experimental } of probesOf(route).outside) {
          for (const token of [ADMIN_TOKEN, OTHER_READER]) {
            const response = await call(route, token, version, experimental);
            if (response.status !== 404 || !isEqual(response.body, ROUTE_NOT_IN_VERSION)) {
              wrong.push(
                `${route.method} ${route.path} at ${version}${experimental ? ' (experimental)' : ''} as ${token}: ${response.status}`,
              );
            }
          }
        }
      }
      expect(wrong).toEqual([]);
    });

    it('serves every route inside its versions', async () => {
      const wrong: string[] = [];
      for (const route of versioned) {
        const { since, until } = route.versions;
        // /os-quota-sets/{project}/detail: detail came in 2.25, that path left in 2.7.
        if (since && until && minorOf(since) > minorOf(until)) continue;
        const { version, experimental } = probesOf(route).inside;
        const response = await call(route, ADMIN_TOKEN, version, experimental);
        if (isEqual(response.body, ROUTE_NOT_IN_VERSION))
          wrong.push(`${route.method} ${route.path} at ${version}`);
      }
      expect(wrong).toEqual([]);
    });

    it('still asks for a token first', async () => {
      const messages = versioned.find((r) => r.path === '/v2/messages');
      expect(messages).toBeDefined();
      expect((await call(messages as RouteEntry, '', '2.36', false)).status).toBe(401);
    });
  });
});
