import type { Express, Response } from 'express';

/**
 * An answer's JSON text, made by the handler: a listing spliced from its views' kept texts
 * (`keptJson`) rather than stringified whole. Answered as Express would answer the value the
 * text stands for.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

const texts = new WeakMap<object, string>();

/**
 * The JSON text of a value that does not change once made (a kept view, `keptViews`), made
 * once and kept as long as the value is.
 */
export const keptJson = (value: object): string => {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
};

/** `{"key":text,...}` from members whose values are JSON texts already, in their order. */
export const jsonObjectText = (members: readonly (readonly [key: string, text: string])[]) =>
  `{${members.map(([key, text]) => `${JSON.stringify(key)}:${text}`).join(',')}}`;

type JsonMethod = (this: Response, body: unknown) => Response;

/** Settings that change what Express writes for a JSON value; none is set by the API. */
const EXPRESS_SETTINGS = ['json escape', 'json replacer', 'json spaces', 'etag fn'] as const;
/** Statuses whose answers Express strips or empties. */
const SPECIAL_STATUSES = new Set([204, 205, 304]);

/**
 * Express's `res.json`, writing the same status, headers and bytes with less work for the
 * answers the API gives (the app sets no JSON replacer, spaces or escaping, and no ETag): the
 * text is not parsed back for its charset, nor copied into a buffer before it is written, and a
 * `JsonText` is written as it is. Whatever Express would treat apart (a content type already
 * set, a conditional request, HEAD, 204 or 304, a value without JSON text) goes to Express.
 */
const leanJson = (express: JsonMethod): JsonMethod =>
  function json(this: Response, body: unknown): Response {
    const { req, app } = this;
    const text = body instanceof JsonText ? body.text : JSON.stringify(body);
    if (
      typeof text !== 'string' ||
      EXPRESS_SETTINGS.some((setting) => Boolean(app.get(setting))) ||
      this.getHeader('Content-Type') !== undefined ||
      this.getHeader('Transfer-Encoding') !== undefined ||
      req.method === 'HEAD' ||
      SPECIAL_STATUSES.has(this.statusCode) ||
      req.headers['if-none-match'] !== undefined ||
      req.headers['if-modified-since'] !== undefined
    ) {
      return express.call(this, body instanceof JsonText ? JSON.parse(body.text) : body);
    }
    this.setHeader('Content-Type', 'application/json; charset=utf-8');
    this.setHeader('Content-Length', String(Buffer.byteLength(text)));
    this.end(text, 'utf8');
    return this;
  };

/** Every JSON answer of the app through `leanJson` (Express's `app.response` is its prototype). */
export const answerJsonLean = (app: Express): void => {
  app.response.json = leanJson(app.response.json as JsonMethod);
};
