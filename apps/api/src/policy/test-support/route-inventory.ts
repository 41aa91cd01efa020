import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ApiModule } from '../../api.module.js';
import { GRAPHQL_PROVIDERS } from '../../graphql/graphql-api.module.js';
import { manilaActionsOf } from '../manila-actions.js';
import { versionRangeOf, type VersionRange } from '../route-versions.js';
import {
  ACTION_ROUTE_KEY,
  POLICY_KEY,
  PUBLIC_KEY,
  type PolicyDeclaration,
} from '../route-policy.decorators.js';

/** One REST route as its controller declares it. */
export interface RouteEntry {
  readonly controller: string;
  readonly handler: string;
  readonly method: string;
  /** Express's path, `/v2/shares/:id`. */
  readonly path: string;
  readonly policy: PolicyDeclaration | undefined;
  /** The microversions the route exists in (its own and its controller's declarations). */
  readonly versions: VersionRange;
  readonly isPublic: boolean;
  readonly actions: readonly ActionEntry[] | undefined;
}

/** One Manila action of an action route. */
export interface ActionEntry {
  readonly name: string;
  readonly handler: string;
  readonly since: string | undefined;
  readonly until: string | undefined;
  readonly policy: PolicyDeclaration | undefined;
}

/** One GraphQL query, subscription or field resolver. */
export interface GraphqlEntry {
  readonly resolver: string;
  readonly field: string;
  readonly policy: PolicyDeclaration | undefined;
}

const RESOLVER_NAME_METADATA = 'graphql:resolver_name';

const meta = <T>(key: string, target: object): T | undefined =>
  Reflect.getMetadata(key, target) as T | undefined;

const paths = (value: string | string[] | undefined): string[] =>
  value === undefined ? [''] : ([] as string[]).concat(value);

const join = (...parts: string[]): string =>
  `/${parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/')}${parts.at(-1)?.endsWith('/') && parts.at(-1) !== '/' ? '/' : ''}`;

/** The class's methods, inherited ones included (a controller may share its routes' base). */
const methodsOf = (controller: Type<unknown>) => {
  const names = new Set<string>();
  for (
    let prototype = controller.prototype as object | null;
    prototype && prototype !== Object.prototype;
    prototype = Object.getPrototypeOf(prototype) as object | null
  ) {
    Object.getOwnPropertyNames(prototype).forEach((name) => names.add(name));
  }
  const methods = controller.prototype as Record<string, unknown>;
  return [...names]
    .filter((name) => name !== 'constructor' && typeof methods[name] === 'function')
    .map((name) => [name, methods[name] as object] as const);
};

/** Every REST route of the API module's controllers, with what it declares. */
export const restRoutes = (): RouteEntry[] => {
  const controllers = meta<Type<unknown>[]>(MODULE_METADATA.CONTROLLERS, ApiModule) ?? [];
  return controllers.flatMap((controller) =>
    methodsOf(controller).flatMap(([handler, fn]) => {
      const routePath = meta<string | string[]>(PATH_METADATA, fn);
      if (routePath === undefined) return [];
      const method = RequestMethod[meta<RequestMethod>(METHOD_METADATA, fn) ?? RequestMethod.GET];
      const actions = meta<boolean>(ACTION_ROUTE_KEY, fn)
        ? manilaActionsOf(controller).map((a) => ({
            name: a.name,
            handler: a.method,
            since: a.since,
            until: a.until,
            policy: a.policy,
          }))
        : undefined;
      return paths(meta<string | string[]>(PATH_METADATA, controller)).flatMap((base) =>
        paths(routePath).map((p) => ({
          controller: controller.name,
          handler,
          method,
          path: join(base, p),
          policy: meta<PolicyDeclaration>(POLICY_KEY, fn),
          versions: versionRangeOf(controller, fn),
          isPublic: meta<boolean>(PUBLIC_KEY, fn) === true,
          actions,
        })),
      );
    }),
  );
};

/** Every GraphQL query, subscription and field resolver of the GraphQL API. */
export const graphqlFields = (): GraphqlEntry[] =>
  GRAPHQL_PROVIDERS.flatMap((resolver) =>
    methodsOf(resolver as Type<unknown>).flatMap(([handler, fn]) => {
      // Queries, subscriptions and field resolvers all carry it (its value may be unset).
      if (!Reflect.hasMetadata(RESOLVER_NAME_METADATA, fn)) return [];
      return [
        {
          resolver: resolver.name,
          field: handler,
          policy: meta<PolicyDeclaration>(POLICY_KEY, fn),
        },
      ];
    }),
  );
