import type { Express } from 'express';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { loadPolicy } from '#hawser/policy';
import { graphqlFields, restRoutes } from '../../api/src/policy/test-support/route-inventory.js';
import { startHawser, type HawserTestServer } from './test-support/hawser-test-server.js';

/** What Manila (and Hawser's own API description) serve without a token; nothing else may be. */
const PUBLIC_ROUTES = [
  'GET /',
  'GET /v2',
  'GET /v2/',
  'GET /healthcheck',
  'GET /hawser/v1/openapi.json',
];

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
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
      'POST /v2/snapshots/:id/action',
      'POST /v2/types/:id/action',
    ]);
    const table = actionRoutes.flatMap((r) =>
      (r.actions ?? []).map((a) => ({
        route: r.path,
        action: a.names.join('|'),
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
