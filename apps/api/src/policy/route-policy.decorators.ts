import { SetMetadata } from '@nestjs/common';
import type { GraphqlTargetSource } from './graphql-targets.js';
import type { TargetSource } from './policy-targets.js';

/** What a handler declares: the rule it needs and, for one resource, where the resource is. */
export interface PolicyDeclaration {
  readonly rule: string;
  /** The resource whose project the rule is checked against; the caller's project without. */
  readonly target?: TargetSource | GraphqlTargetSource;
}

export const POLICY_KEY = 'hawser:policy';
export const PUBLIC_KEY = 'hawser:public';
export const ACTION_ROUTE_KEY = 'hawser:action-route';
export const ACTION_KEY = 'hawser:action';
export const SINCE_KEY = 'hawser:since';
export const UNTIL_KEY = 'hawser:until';
export const EXPERIMENTAL_KEY = 'hawser:experimental';

/**
 * The policy rule a route, Manila action, GraphQL field or subscription needs (Manila's rule
 * names, `hawser:*` for Hawser's own endpoints). The policy guard enforces it before the
 * handler runs: first against the caller's project, then against the target's project.
 */
export const Policy = (rule: string, target?: TargetSource | GraphqlTargetSource) =>
  SetMetadata(POLICY_KEY, { rule, ...(target && { target }) } satisfies PolicyDeclaration);

/** A route served without a token (Manila's version documents, the health check, the API's description). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/**
 * The `POST …/action` route of a controller: the policy guard picks the controller's method that
 * declares the body's action with @ManilaAction and enforces that method's rule.
 */
export const ManilaActions = () => SetMetadata(ACTION_ROUTE_KEY, true);

/** How Manila names an action across microversions, beside its name. */
export interface ManilaActionNaming {
  /**
   * Manila names the action `os-<name>` up to 2.6 and `<name>` from 2.7, each name in its own
   * versions only: outside them it is Manila's 404, as for any action outside its versions.
   */
  readonly osNameBefore27?: boolean;
}

/** The declaration @ManilaAction stores on a method. */
export interface ManilaActionDeclaration extends ManilaActionNaming {
  readonly name: string;
}

/** A Manila action (the key of a `POST …/action` body) this method handles. */
export const ManilaAction = (name: string, naming: ManilaActionNaming = {}) =>
  SetMetadata(ACTION_KEY, { name, ...naming } satisfies ManilaActionDeclaration);

/**
 * The first microversion that has this route, Manila action or controller (all its routes).
 * Outside its versions a route answers Manila's 404 before any policy is checked.
 */
export const Since = (version: string) => SetMetadata(SINCE_KEY, version);

/** The last microversion that has this route, Manila action or controller. */
export const Until = (version: string) => SetMetadata(UNTIL_KEY, version);

/**
 * Up to and including `version`, the route exists only for a request that sends
 * `X-OpenStack-Manila-API-Experimental: True` (Manila's experimental APIs); 404 otherwise.
 */
export const Experimental = (version: string) => SetMetadata(EXPERIMENTAL_KEY, version);
