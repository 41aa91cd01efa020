import 'reflect-metadata';
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ApiModule } from '../api.module.js';
import { HAWSER_OPENAPI_DOCUMENT } from './hawser-openapi.document.js';
import { checkAgainstSchema, resolveRef } from './test-support/schema-check.js';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const joinPath = (...parts: string[]) =>
  `/${parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/')}`;

/** `METHOD /path/{param}` for every route the API module's controllers declare, from Nest's metadata. */
const declaredRoutes = (): string[] => {
  const controllers = Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, ApiModule) as Type[];
  return controllers.flatMap((controller) => {
    const base = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const prototype = controller.prototype as Record<string, unknown>;
    return Object.getOwnPropertyNames(prototype).flatMap((name) => {
      const handler = prototype[name];
      if (
        name === 'constructor' ||
        typeof handler !== 'function' ||
        !Reflect.hasMetadata(PATH_METADATA, handler)
      )
        return [];
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const paths = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, handler));
      return base.flatMap((b) =>
        paths.map((p) => `${method} ${joinPath(b, p).replace(/:(\w+)/g, '{$1}')}`),
      );
    });
  });
};

const documentedOperations = () =>
  Object.entries(HAWSER_OPENAPI_DOCUMENT.paths).flatMap(
    ([path, item]) =>
      Object.keys(item)
        .filter((key) => HTTP_METHODS.includes(key))
        .map((method) => ({ path, method, operation: (item as Record<string, any>)[method] })), // eslint-disable-line @typescript-eslint/no-explicit-any -- a JSON document
  );

describe("the OpenAPI document of Hawser's own endpoints", () => {
  it('documents exactly the /hawser routes the controllers declare', () => {
    const declared = declaredRoutes().filter((route) =>
      route.split(' ')[1]!.startsWith('/hawser/'),
    );
    const documented = documentedOperations().map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(declared.length).toBeGreaterThanOrEqual(7);
    expect([...documented].sort()).toEqual([...declared].sort());
  });

  it('declares every path parameter, resolves every $ref and names each operation once', () => {
    const operations = documentedOperations();
    for (const { path, operation } of operations) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = ((operation.parameters ?? []) as { name: string; in: string }[])
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      expect({ path, params: declared }).toEqual({ path, params: inPath });
      expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
    }
    const ids = operations.map((o) => o.operation.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    const refs = [...JSON.stringify(HAWSER_OPENAPI_DOCUMENT).matchAll(/"\$ref":"([^"]+)"/g)];
    expect(refs.length).toBeGreaterThan(0);
    for (const [, ref] of refs) {
      expect(() => resolveRef(HAWSER_OPENAPI_DOCUMENT, ref!)).not.toThrow();
    }
  });

  it('has schemas that reject what the API does not send (the e2e check relies on it)', () => {
    const fault = { $ref: '#/components/schemas/Fault' };
    const check = (schema: Record<string, unknown>, value: unknown) =>
      checkAgainstSchema(HAWSER_OPENAPI_DOCUMENT, schema, value);
    expect(check(fault, { itemNotFound: { code: 404, message: 'gone' } })).toEqual([]);
    expect(check(fault, { itemNotFound: { code: '404', message: 'gone' } })).toEqual([
      '$.itemNotFound.code: "404" is not integer',
    ]);
    expect(check(fault, { error: 'x', other: 'y' })).toContain('$: more than 1 properties');
    const parked = { $ref: '#/components/schemas/ParkedEvent' };
    expect(check(parked, { id: 'a', extra: 1 })).toEqual(
      expect.arrayContaining(['$: lacks process_manager', '$: undocumented property extra']),
    );
  });
});
