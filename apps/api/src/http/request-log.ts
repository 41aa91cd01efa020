import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { httpRequestDuration, secondsSince, withLogContext } from '#hawser/observability';
import { contextOf } from './request-context.js';

const logger = new Logger('http');

/** The route template (`/v2/shares/:id`), so metrics stay a bounded set of series. */
const routeOf = (req: Request): string => {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return path;
  return req.path === '/graphql' ? '/graphql' : 'unmatched';
};

/**
 * One line and one observation per request, once its answer is sent: method, route, status,
 * duration, Manila's request id, the caller and the microversion. Everything the request does
 * meanwhile (commands, their events) runs within its request id.
 */
export const requestLog = (req: Request, res: Response, next: NextFunction): void => {
  const started = performance.now();
  const { requestId } = contextOf(req);
  res.once('finish', () => {
    const seconds = secondsSince(started);
    const route = routeOf(req);
    const status = res.statusCode;
    httpRequestDuration.observe({ method: req.method, route, status }, seconds);
    const { auth, microversion } = contextOf(req);
    const line = {
      msg: `${req.method} ${req.originalUrl} ${status}`,
      requestId,
      method: req.method,
      route,
      status,
      durationMs: Math.round(seconds * 1000),
      ...(auth && { userId: auth.userId, projectId: auth.projectId }),
      ...(req.originalUrl.startsWith('/v2/') && { microversion: microversion.text }),
    };
    if (status >= 500) logger.error(line);
    else logger.log(line);
  });
  withLogContext({ requestId, correlationId: requestId }, next);
};
