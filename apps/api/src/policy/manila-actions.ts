import type { Type } from '@nestjs/common';
import type { Response } from 'express';
import { actionOf } from '../http/action-body.js';
import { badRequest } from '../http/manila-error.js';
import type { AuthContext, RequestContext } from '../http/request-context.js';
import {
  ACTION_KEY,
  POLICY_KEY,
  SINCE_KEY,
  UNTIL_KEY,
  type ManilaActionDeclaration,
  type PolicyDeclaration,
} from './route-policy.decorators.js';
import {
  inVersionRange,
  newer,
  older,
  routeNotInVersion,
  type VersionRange,
} from './route-versions.js';

/** One method of a controller that handles a Manila action, as its decorators declare it. */
export interface ManilaActionHandler {
  readonly name: string;
  /** Named `os-<name>` up to 2.6, `<name>` from 2.7 (see `ManilaActionNaming`). */
  readonly osNameBefore27: boolean;
  readonly method: string;
  readonly since: string | undefined;
  readonly until: string | undefined;
  readonly policy: PolicyDeclaration | undefined;
}

/** What an action handler receives: the resource id, the action's argument and the request. */
export interface ActionCall {
  readonly id: string;
  /** The action's name as sent. */
  readonly name: string;
  readonly argument: unknown;
  readonly ctx: RequestContext;
  readonly auth: AuthContext;
  readonly res: Response;
}

/** The action chosen for a request, before the handler runs. */
export interface ChosenAction {
  readonly handler: ManilaActionHandler;
  readonly name: string;
  readonly argument: unknown;
}

const handlersByController = new WeakMap<object, readonly ManilaActionHandler[]>();

const metadata = <T>(key: string, target: object): T | undefined =>
  Reflect.getMetadata(key, target) as T | undefined;

/** Every method of the controller that declares a @ManilaAction, with its range and rule. */
export const manilaActionsOf = (controller: Type<unknown>): readonly ManilaActionHandler[] => {
  const known = handlersByController.get(controller);
  if (known) return known;
  const prototype = controller.prototype as Record<string, unknown>;
  const handlers = Object.getOwnPropertyNames(prototype).flatMap((method) => {
    const fn = prototype[method];
    if (method === 'constructor' || typeof fn !== 'function') return [];
    const declared = metadata<ManilaActionDeclaration>(ACTION_KEY, fn);
    if (!declared) return [];
    return [
      {
        name: declared.name,
        osNameBefore27: declared.osNameBefore27 === true,
        method,
        since: metadata<string>(SINCE_KEY, fn),
        until: metadata<string>(UNTIL_KEY, fn),
        policy: metadata<PolicyDeclaration>(POLICY_KEY, fn),
      },
    ];
  });
  handlersByController.set(controller, handlers);
  return handlers;
};

/** A name the handler answers to, and the microversions it does under that name. */
interface ActionName {
  readonly name: string;
  readonly handler: ManilaActionHandler;
  readonly range: VersionRange;
}

/** The names a handler answers to: its `os-` name up to 2.6 and its own from 2.7, or its own. */
const namesOf = (handler: ManilaActionHandler): readonly ActionName[] => {
  const { name, since, until } = handler;
  const range = { since, until, experimentalUntil: undefined };
  if (!handler.osNameBefore27) return [{ name, handler, range }];
  return [
    { name: `os-${name}`, handler, range: { ...range, until: older(until, '2.6') } },
    { name, handler, range: { ...range, since: newer(since, '2.7') } },
  ];
};

const namesByController = new WeakMap<object, ReadonlyMap<string, readonly ActionName[]>>();

/** Every name the controller's actions answer to, each with its handlers: built once. */
const actionNamesOf = (controller: Type<unknown>): ReadonlyMap<string, readonly ActionName[]> => {
  const known = namesByController.get(controller);
  if (known) return known;
  const byName = new Map<string, ActionName[]>();
  for (const named of manilaActionsOf(controller).flatMap(namesOf)) {
    byName.set(named.name, [...(byName.get(named.name) ?? []), named]);
  }
  namesByController.set(controller, byName);
  return byName;
};

/**
 * The controller's handler for the body's action: Manila's 400 for a body that is not one
 * action or names an unknown one, and its 404 when the name exists in other microversions.
 */
export const chooseAction = (
  controller: Type<unknown>,
  body: unknown,
  ctx: RequestContext,
): ChosenAction => {
  const { name, argument } = actionOf(body);
  const named = actionNamesOf(controller).get(name);
  if (!named) throw badRequest(`There is no such action: ${name}`);
  const handler = named.find(({ range }) => inVersionRange(range, ctx.microversion))?.handler;
  // Manila turns its VersionNotFoundForAPIMethod into a bare 404, as for a route.
  if (!handler) throw routeNotInVersion();
  return { handler, name, argument };
};

/** Runs the action the policy guard chose for this request on the controller. */
export const runManilaAction = (
  controller: object,
  ctx: RequestContext,
  id: string,
  res: Response,
): Promise<unknown> => {
  const chosen = ctx.action;
  const auth = ctx.auth;
  if (!chosen || !auth) throw new Error('An action route ran without the policy guard');
  const method = (controller as Record<string, (call: ActionCall) => Promise<unknown>>)[
    chosen.handler.method
  ];
  if (!method) throw new Error(`No action handler ${chosen.handler.method}`);
  return method.call(controller, {
    id,
    name: chosen.name,
    argument: chosen.argument,
    ctx,
    auth,
    res,
  });
};
