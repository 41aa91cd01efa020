import { forbiddenError } from './manila-error.js';
import type { AuthContext, RequestContext } from './request-context.js';

/** Manila's Zed defaults (reference 9): admin-only rules need the admin role. */
export const requireAdmin = (ctx: RequestContext, rule: string): AuthContext =>
  requireAdminRole(requireAuth(ctx), rule);

export const requireAdminRole = (auth: AuthContext, rule: string): AuthContext => {
  if (!auth.isAdmin) throw forbiddenError(`Policy doesn't allow ${rule} to be performed.`);
  return auth;
};

export const requireAuth = (ctx: RequestContext): AuthContext => {
  if (!ctx.auth) throw forbiddenError('Authentication required');
  return ctx.auth;
};
