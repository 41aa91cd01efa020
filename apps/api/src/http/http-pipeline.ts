import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from '@nestjs/common';
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { Authenticator } from './authenticator.js';
import { KeystoneUnavailableError } from './keystone/keystone-unavailable.error.js';
import type { ManilaHttpError } from './manila-error.js';
import { faultBody } from './manila-error.js';
import { answerJsonLean } from './json-answer.js';
import { negotiateMicroversion } from './microversion.js';
import type { HawserRequest } from './request-context.js';
import { requestLog } from './request-log.js';

/** Manila's default project_id_regex; resource names contain other letters, so no ambiguity. */
const PROJECT_IN_URL = /^\/v2\/([0-9a-f-]+)(\/.*)?$/;
const UNVERSIONED = new Set(['/', '/v2', '/v2/', '/healthcheck']);
/** Documents that describe the API and hold no data, and health: readable without a token. */
const WITHOUT_TOKEN = new Set([
  ...UNVERSIONED,
  '/hawser/v1/openapi.json',
  '/health/live',
  '/health/ready',
]);

const authLogger = new Logger('auth');

const sendFault = (res: Response, status: number, message: string) => {
  if (status === 413) res.setHeader('Retry-After', '0');
  res.status(status).json(faultBody(status, message));
};

export interface HttpPipelineOptions {
  readonly bodyLimit: string;
  readonly authenticator: Authenticator;
  /** The web console, served at `/ui` without a token (it signs the user in). */
  readonly console?: RequestHandler;
}

/**
 * The Express stages every request passes before Nest routes it: request ids, the optional
 * project id in the URL, body parsing with Manila's errors, microversion negotiation and
 * authentication. Tests and the service use this same function.
 */
export const configureHttpPipeline = (
  app: NestExpressApplication,
  options: HttpPipelineOptions,
): void => {
  // Manila reads query strings through webob, where a repeated key means its last value;
  // Express would hand the handlers an array instead of the string they validate.
  app.set('query parser', (text: string) => Object.fromEntries(new URLSearchParams(text)));
  // Manila sends no ETag; Express would hash every answer's body for one (the console's static
  // files keep theirs: they are served apart).
  app.set('etag', false);
  answerJsonLean(app.getHttpAdapter().getInstance() as express.Express);

  // Node closes idle keep-alive connections after 5 s; a client that reuses one just then gets
  // ECONNRESET. Idle connections stay open longer than clients (and load balancers) keep them.
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  app.use((req: Request, res: Response, next: NextFunction) => {
    const requestId = `req-${randomUUID()}`;
    res.setHeader('x-compute-request-id', requestId);
    res.setHeader('x-openstack-request-id', requestId);
    let urlProjectId: string | undefined;
    const match = PROJECT_IN_URL.exec(req.path);
    if (match && match[2] !== undefined) {
      urlProjectId = match[1];
      const query = req.url.slice(req.path.length);
      req.url = `/v2${match[2]}${query}`;
    }
    (req as HawserRequest).hawser = {
      requestId,
      baseUrl: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
      urlProjectId,
      microversion: { major: 2, minor: 0, text: '2.0', experimental: false },
      auth: undefined,
      policy: undefined,
      action: undefined,
      resource: undefined,
    };
    next();
  });
  app.use(requestLog);

  app.use(express.json({ limit: options.bodyLimit, type: () => true }));
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const e = error as { type?: string; status?: number };
    if (e.type === 'entity.too.large') return sendFault(res, 413, 'Request is too large.');
    if (e.type === 'entity.parse.failed') return sendFault(res, 400, 'Malformed request body');
    if (e.status && e.status >= 400 && e.status < 500) {
      return sendFault(res, e.status, 'Malformed request body');
    }
    return next(error);
  });

  if (options.console) app.use('/ui', options.console);

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (UNVERSIONED.has(req.path) || !req.path.startsWith('/v2/')) return next();
    const ctx = (req as HawserRequest).hawser;
    const header = req.get('X-OpenStack-Manila-API-Version');
    try {
      ctx.microversion = negotiateMicroversion(
        header,
        req.get('X-OpenStack-Manila-API-Experimental'),
      );
    } catch (error) {
      const e = error as ManilaHttpError;
      if (e.status === 406 && header) res.setHeader('X-OpenStack-Manila-API-Version', header);
      return sendFault(res, e.status, e.message);
    }
    res.setHeader('X-OpenStack-Manila-API-Version', ctx.microversion.text);
    res.setHeader('Vary', 'X-OpenStack-Manila-API-Version');
    if (ctx.microversion.experimental) res.setHeader('X-OpenStack-Manila-API-Experimental', 'True');
    next();
  });

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (WITHOUT_TOKEN.has(req.path)) return next();
    const ctx = (req as HawserRequest).hawser;
    options.authenticator
      .authenticate(req.get('X-Auth-Token'))
      .then((auth) => {
        if (!auth) return sendFault(res, 401, 'Authentication required');
        if (ctx.urlProjectId !== undefined && ctx.urlProjectId !== auth.projectId) {
          return sendFault(res, 400, 'Malformed request url');
        }
        ctx.auth = auth;
        next();
      })
      .catch((error: unknown) => {
        if (!(error instanceof KeystoneUnavailableError)) return next(error);
        // As keystonemiddleware: the token may be good, so 503 (not 401); details stay in the log.
        authLogger.warn(error.message);
        sendFault(res, 503, 'The identity service is unavailable. Please try again later.');
      });
  });
};
