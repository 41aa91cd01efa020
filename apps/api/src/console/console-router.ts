import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { HawserConfig } from '#hawser/platform';
import { faultBody, ManilaHttpError } from '../http/manila-error.js';
import { consoleAssetsDir } from './console-assets.js';
import { keystoneLogin, loginRequestOf } from './keystone-login.js';

/** Every asset comes from Hawser itself; the page talks to this origin only (HTTP and WebSocket). */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self' ws: wss:",
  "img-src 'self' data: blob:",
  // Chart and graph libraries size their canvases through style attributes.
  "style-src 'self' 'unsafe-inline'",
  "frame-ancestors 'none'",
].join('; ');

const sendError = (res: Response, error: unknown, next: NextFunction) => {
  if (!(error instanceof ManilaHttpError)) return next(error);
  res.status(error.status).json(faultBody(error.status, error.message));
};

/**
 * The web console at `/ui`: its built assets, what the sign-in page needs to know (the
 * authentication mode) and, with Keystone, the sign-in itself (Hawser asks Keystone for the
 * user's token). Everything else the page does goes through the public REST and GraphQL APIs.
 */
export const consoleRouter = (
  config: Pick<HawserConfig, 'auth' | 'keystone'>,
  assetsDir = consoleAssetsDir(),
): Router => {
  const router = Router();
  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  router.get('/config.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ auth: config.auth });
  });
  router.post('/session', (req: Request, res: Response, next: NextFunction) => {
    const keystone = config.keystone;
    if (config.auth !== 'keystone' || !keystone) {
      return sendError(
        res,
        new ManilaHttpError(404, 'Sign-in with a password needs HAWSER_AUTH=keystone.'),
        next,
      );
    }
    let login;
    try {
      login = loginRequestOf(req.body);
    } catch (error) {
      return sendError(res, error, next);
    }
    keystoneLogin(keystone, login).then(
      (issued) => {
        res.setHeader('Cache-Control', 'no-store');
        res.status(201).json({ token: issued.token, expires_at: issued.expiresAt });
      },
      (error: unknown) => sendError(res, error, next),
    );
  });
  // Hashed file names: an asset never changes under its name.
  router.use(
    '/assets',
    express.static(path.join(assetsDir, 'assets'), { immutable: true, maxAge: '1y' }),
  );
  router.get('/', (req, res) => {
    // `/ui` without its slash: the page's relative asset paths need it.
    if (!req.originalUrl.split('?')[0]?.endsWith('/')) return res.redirect(301, '/ui/');
    const index = path.join(assetsDir, 'index.html');
    if (!fs.existsSync(index)) {
      return res
        .status(404)
        .type('text/plain')
        .send('The web console is not built: run npm run build (it runs build:ui).');
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  router.use(express.static(assetsDir, { index: false }));
  return router;
};
