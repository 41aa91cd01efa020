import type { Request } from 'express';
import type { RequestContext } from './request-context.js';

/**
 * Manila's `*_links` entry pointing at the next page: the same path (with the project id when the
 * request had one) and the given query parameters.
 */
export const nextPageLink = (req: Request, ctx: RequestContext, params: URLSearchParams) => {
  const project = ctx.urlProjectId ? `/${ctx.urlProjectId}` : '';
  // req.path is the rewritten `/v2/...` path: drop `/v2` and put the client's prefix back.
  return [{ rel: 'next', href: `${ctx.baseUrl}/v2${project}${req.path.slice(3)}?${params}` }];
};
