import http, { IncomingMessage, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

type Constructor = abstract new (...args: never[]) => object;

/**
 * A constructor of `base`'s objects that have `prototype` from the start, or undefined when
 * `base` is a class (it cannot then be called on an object made elsewhere).
 */
const madeWith = <T extends Constructor>(base: T, prototype: object): T | undefined => {
  if (Function.prototype.toString.call(base).startsWith('class')) return undefined;
  const construct = base as unknown as (this: object, ...args: unknown[]) => void;
  function Made(this: object, ...args: unknown[]): void {
    construct.apply(this, args);
  }
  Made.prototype = prototype;
  return Made as unknown as T;
};

/**
 * Nest's Express adapter with an HTTP server that makes each request and response with the
 * Express app's own prototypes (`app.request`, `app.response`). Express otherwise gives them
 * those prototypes with `Object.setPrototypeOf` as it starts to handle them, which on node 20
 * costs several times the rest of its work (see the README, "Express's prototypes from the
 * start"); finding them already there, it changes nothing. Node's `IncomingMessage` and
 * `ServerResponse` are plain functions, called on the new objects; should they become classes,
 * or should HTTPS or Nest's connection options be asked for, the server is Nest's own.
 */
export class ExpressAdapterWithPrototypes extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    const app = this.getInstance<Express>();
    const Request = madeWith(IncomingMessage, app.request);
    const Response = madeWith(ServerResponse, app.response);
    if (
      Request === undefined ||
      Response === undefined ||
      options.httpsOptions !== undefined ||
      options.forceCloseConnections === true ||
      options.return503OnClosing === true
    ) {
      super.initHttpServer(options);
      return;
    }
    this.setHttpServer(
      http.createServer({ IncomingMessage: Request, ServerResponse: Response }, app),
    );
  }
}
