import type { Request } from 'express';
import type { ChosenAction } from '../policy/manila-actions.js';
import type { RequestPolicy } from '../policy/request-policy.js';

export interface AuthContext {
  readonly userId: string;
  readonly projectId: string;
  readonly roles: readonly string[];
  readonly isAdmin: boolean;
}

export interface Microversion {
  readonly major: number;
  readonly minor: number;
  readonly text: string;
  readonly experimental: boolean;
}

/** What the HTTP pipeline learns about a request before a controller runs. */
export interface RequestContext {
  readonly requestId: string;
  /** `scheme://host:port` as the client addressed us. */
  readonly baseUrl: string;
  /** The project id segment of the URL, when the client used one. */
  readonly urlProjectId: string | undefined;
  microversion: Microversion;
  auth: AuthContext | undefined;
  /** The caller's policy, once the policy guard has passed the route's rule. */
  policy: RequestPolicy | undefined;
  /** The Manila action the policy guard chose for a `POST …/action` request. */
  action: ChosenAction | undefined;
  /**
   * The resource the policy guard read to judge the route's rule, as read, once it passed: a
   * handler that reads the same one uses it rather than read it again.
   */
  resource: { readonly kind: string; readonly document: unknown } | undefined;
}

export type HawserRequest = Request & { hawser: RequestContext };

export const contextOf = (request: Request): RequestContext => (request as HawserRequest).hawser;

/** True when the negotiated version is at least `major.minor` (the use cases' own test). */
export { atLeast } from '#hawser/application';
