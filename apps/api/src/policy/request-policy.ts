import {
  policyNotAuthorizedMessage,
  withImpliedRoles,
  type PolicyEnforcer,
  type PolicyTarget,
} from '#hawser/policy';
import { forbiddenError } from '../http/manila-error.js';
import type { AuthContext } from '../http/request-context.js';

/** Manila's refusal (oslo.policy's PolicyNotAuthorized). */
export const policyRefusal = (rule: string) => forbiddenError(policyNotAuthorizedMessage(rule));

/**
 * The policy as one caller sees it, for the rules that depend on what a request asks
 * (a public share, a forced extend, admin-only metadata) rather than on the route alone.
 */
export interface RequestPolicy {
  /** True when the caller passes `rule` on `target` (default: the caller's own project). */
  allows(rule: string, target?: PolicyTarget): boolean;
  /** Manila's 403 unless the caller passes `rule`. */
  enforce(rule: string, target?: PolicyTarget): void;
}

const callerTarget = (auth: AuthContext): PolicyTarget => ({
  project_id: auth.projectId,
  user_id: auth.userId,
});

/** The caller's policy; a noauth member is a reader too, as Keystone's implied roles make it. */
export const requestPolicy = (enforcer: PolicyEnforcer, auth: AuthContext): RequestPolicy => {
  const credentials = { ...auth, roles: withImpliedRoles(auth.roles) };
  const allows = (rule: string, target: PolicyTarget = callerTarget(auth)) =>
    enforcer.authorize(rule, credentials, target);
  return {
    allows,
    enforce(rule, target) {
      if (!allows(rule, target)) throw policyRefusal(rule);
    },
  };
};

/** The request's policy; set by the policy guard before any handler runs. */
export const policyOf = (ctx: { readonly policy: RequestPolicy | undefined }): RequestPolicy => {
  if (!ctx.policy) throw new Error('A handler ran without the policy guard');
  return ctx.policy;
};
