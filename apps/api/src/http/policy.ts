import { forbiddenError } from './manila-error.js';
import type { AuthContext, RequestContext } from './request-context.js';

/** The authenticated caller; the pipeline refuses requests without one before any handler. */
export const requireAuth = (ctx: RequestContext): AuthContext => {
  if (!ctx.auth) throw forbiddenError('Authentication required');
  return ctx.auth;
};
