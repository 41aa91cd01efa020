import {
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
  type Type,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { Request } from 'express';
import type { PolicyHolder } from '#hawser/policy';
import { DOCUMENT_STORE } from '#hawser/platform';
import type { DocumentStore } from '#hawser/read-models';
import type { GraphqlContext } from '../graphql/graphql-context.js';
import { ManilaHttpError } from '../http/manila-error.js';
import { contextOf, type AuthContext } from '../http/request-context.js';
import { chooseAction } from './manila-actions.js';
import { POLICY_HOLDER } from './policy.tokens.js';
import { policyRefusal, requestPolicy, type RequestPolicy } from './request-policy.js';
import {
  ACTION_ROUTE_KEY,
  POLICY_KEY,
  PUBLIC_KEY,
  type PolicyDeclaration,
} from './route-policy.decorators.js';
import type { ResourceTarget } from './policy-targets.js';
import {
  inVersionRange,
  routeNotInVersion,
  versionRangeOf,
  type VersionRange,
} from './route-versions.js';

/** Rules that read: refused on another project's resource, they answer 404, never 403. */
const READ_RULE =
  /:(get\w*|index|show|detail|default|access_get\w*|access_list|list_project_access)$/;

/** Each rule's answer, kept: the rules are a fixed set, and the guard asks on every request. */
const readRules = new Map<string, boolean>();

const isReadRule = (rule: string): boolean => {
  let read = readRules.get(rule);
  if (read === undefined) {
    read = READ_RULE.test(rule);
    readRules.set(rule, read);
  }
  return read;
};

/**
 * The one place where policy is enforced, for every REST route, Manila action, GraphQL field and
 * subscription: a REST route's microversions (@Since, @Until, @Experimental) first, then the
 * handler's declared rule, checked first against the caller's own project (as
 * Manila's controllers do), then, when the route names its resource, against the resource's
 * project. A route that declares neither a rule nor @Public is a programming error (the route
 * inventory spec lists them all).
 */
@Injectable()
export class PolicyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(POLICY_HOLDER) private readonly policy: PolicyHolder,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
  ) {}

  /** Each handler's declarations, read once: decorators do not change (one entry a route). */
  private readonly routes = new WeakMap<object, WeakMap<object, RouteDeclarations>>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.declarationsOf(context.getClass(), context.getHandler());
    if (route.isPublic) return true;
    if (context.getType<string>() === 'graphql') return this.graphql(context, route.policy);
    const request = context.switchToHttp().getRequest<Request>();
    const ctx = contextOf(request);
    const auth = ctx.auth;
    if (!auth) throw new ManilaHttpError(401, 'Authentication required');
    // Manila finds the method for the microversion before it authorizes: outside its versions a
    // route is a 404 for every caller, never a 403.
    if (!inVersionRange(route.versions, ctx.microversion)) {
      throw routeNotInVersion();
    }
    ctx.policy = requestPolicy(this.policy.current, auth);
    let declaration = route.policy;
    if (route.isActionRoute) {
      ctx.action = chooseAction(context.getClass() as Type<unknown>, request.body, ctx);
      declaration = ctx.action.handler.policy;
    }
    if (!declaration) throw undeclared(context);
    await this.authorize(declaration, ctx.policy, auth, request);
    return true;
  }

  private declarationsOf(controller: Type<unknown>, handler: object): RouteDeclarations {
    let handlers = this.routes.get(controller);
    if (handlers === undefined) {
      handlers = new WeakMap();
      this.routes.set(controller, handlers);
    }
    let route = handlers.get(handler);
    if (route === undefined) {
      const read = <T>(key: string) => this.reflector.get<T>(key, handler as Type<unknown>);
      route = {
        isPublic: read<boolean | undefined>(PUBLIC_KEY) === true,
        versions: versionRangeOf(controller, handler),
        policy: read<PolicyDeclaration | undefined>(POLICY_KEY),
        isActionRoute: read<boolean | undefined>(ACTION_ROUTE_KEY) === true,
      };
      handlers.set(handler, route);
    }
    return route;
  }

  private async authorize(
    { rule, target }: PolicyDeclaration,
    policy: RequestPolicy,
    auth: AuthContext,
    request: Request,
  ): Promise<void> {
    policy.enforce(rule);
    const resource = target && 'load' in target && (await target.load(request, this.documents));
    if (!resource) return;
    authorizeOnResource(rule, policy, auth, resource);
    contextOf(request).resource = { kind: target.kind, document: resource.document };
  }

  /**
   * A GraphQL query, field or subscription: its rule on the caller's project, then on the
   * parent or argument it names. Lists are scoped by the resolvers, as the REST lists are.
   */
  private graphql(context: ExecutionContext, declaration: PolicyDeclaration | undefined): boolean {
    if (!declaration) throw undeclared(context);
    const gql = GqlExecutionContext.create(context);
    const { auth, policy } = gql.getContext<GraphqlContext>();
    policy.enforce(declaration.rule);
    const { target } = declaration;
    const resource =
      target && 'of' in target && target.of(gql.getRoot(), gql.getArgs<Record<string, unknown>>());
    if (resource) authorizeOnResource(declaration.rule, policy, auth, resource);
    return true;
  }
}

/** What a handler and its controller declare for the guard. */
interface RouteDeclarations {
  readonly isPublic: boolean;
  readonly versions: VersionRange;
  readonly policy: PolicyDeclaration | undefined;
  readonly isActionRoute: boolean;
}

/**
 * The second step: the rule against the resource's project. A caller who may not know the
 * resource exists gets its 404; a read of a public share passes; any other refusal is the 403.
 */
const authorizeOnResource = (
  rule: string,
  policy: RequestPolicy,
  auth: AuthContext,
  resource: ResourceTarget,
): void => {
  const target = { project_id: resource.projectId, user_id: resource.userId };
  const { visibility } = resource;
  if (visibility && !resource.isPublic && !policy.allows(visibility.rule, target)) {
    throw visibility.hidden();
  }
  const read = isReadRule(rule);
  if (read && resource.isPublic) return;
  if (policy.allows(rule, target)) return;
  if (read && visibility && auth.projectId !== resource.projectId) throw visibility.hidden();
  throw policyRefusal(rule);
};

const undeclared = (context: ExecutionContext) =>
  new Error(`${context.getClass().name}.${context.getHandler().name} declares no policy rule`);
