import type { ViewContext } from '#hawser/api-contracts';
import type { RequestContext } from './request-context.js';

export const viewContextOf = (ctx: RequestContext): ViewContext => ({
  version: [ctx.microversion.major, ctx.microversion.minor],
  isAdmin: ctx.auth?.isAdmin ?? false,
  baseUrl: ctx.baseUrl,
  urlProjectId: ctx.urlProjectId,
});
