import type { Express, Response } from 'express';

/**
 * A JSON text as the byte chunks it was spliced from, in order: written one after another (one
 * `writev`) rather than copied into one buffer first, since a listing's kept views add up to
 * tens of kilobytes, and a fresh buffer that large costs more in page faults than the copy.
 */
export type JsonChunks = readonly Buffer[];

/**
 * An answer's JSON, made by the handler as UTF-8 bytes: a listing spliced from its views' kept
 * bytes (`keptJson`), not stringified whole nor joined into a string that is then measured and
 * encoded again. Answered as Express would answer the value the bytes stand for.
 */
export class JsonBytes {
  constructor(readonly chunks: JsonChunks) {}
}

const kept = new WeakMap<object, Buffer>();

/**
 * The JSON of a value that does not change once made (a kept view, `keptViews`), encoded once
 * and kept as long as the value is.
 */
export const keptJson = (value: object): Buffer => {
  let bytes = kept.get(value);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(value));
    kept.set(value, bytes);
  }
  return bytes;
};

const [OPEN_ARRAY, COMMA, CLOSE_ARRAY, CLOSE_OBJECT] = ['[', ',', ']', '}'].map((text) =>
  Buffer.from(text),
) as [Buffer, Buffer, Buffer, Buffer];

/** `[item,...]` from items that are JSON already. */
export const jsonArrayChunks = (items: readonly Buffer[]): JsonChunks => {
  const chunks: Buffer[] = [OPEN_ARRAY];
  items.forEach((item, index) => {
    if (index > 0) chunks.push(COMMA);
    chunks.push(item);
  });
  chunks.push(CLOSE_ARRAY);
  return chunks;
};

/** `{"key":value,...}` from members whose values are JSON already, in their order. */
export const jsonObjectChunks = (
  members: readonly (readonly [key: string, json: Buffer | JsonChunks])[],
): JsonChunks => {
  if (members.length === 0) return [Buffer.from('{}')];
  const chunks = members.flatMap(([key, json], index) => [
    Buffer.from(`${index === 0 ? '{' : ','}${JSON.stringify(key)}:`),
    ...(Buffer.isBuffer(json) ? [json] : json),
  ]);
  chunks.push(CLOSE_OBJECT);
  return chunks;
};

/** Writes the chunks as the answer's body and ends it: corked, so they leave in one `writev`. */
const endWithChunks = (res: Response, chunks: JsonChunks): void => {
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  res.end();
};

type JsonMethod = (this: Response, body: unknown) => Response;

/** Settings that change what Express writes for a JSON value; none is set by the API. */
const EXPRESS_SETTINGS = ['json escape', 'json replacer', 'json spaces', 'etag fn'] as const;
/** Statuses whose answers Express strips or empties. */
const SPECIAL_STATUSES = new Set([204, 205, 304]);

/**
 * Express's `res.json`, writing the same status, headers and bytes with less work for the
 * answers the API gives (the app sets no JSON replacer, spaces or escaping, and no ETag): the
 * text is not parsed back for its charset, nor copied into a buffer before it is written, and
 * `JsonBytes` are written as their chunks. Whatever Express would treat apart (a content type
 * already set, a conditional request, HEAD, 204 or 304, a value without JSON text) goes to
 * Express.
 */
const leanJson = (express: JsonMethod): JsonMethod =>
  function json(this: Response, body: unknown): Response {
    const { req, app } = this;
    // JSON.stringify answers undefined for undefined (and a function), which Express answers its way.
    const json: JsonChunks | string | undefined =
      body instanceof JsonBytes ? body.chunks : JSON.stringify(body);
    if (
      json === undefined ||
      EXPRESS_SETTINGS.some((setting) => Boolean(app.get(setting))) ||
      this.getHeader('Content-Type') !== undefined ||
      this.getHeader('Transfer-Encoding') !== undefined ||
      req.method === 'HEAD' ||
      SPECIAL_STATUSES.has(this.statusCode) ||
      req.headers['if-none-match'] !== undefined ||
      req.headers['if-modified-since'] !== undefined
    ) {
      return express.call(
        this,
        body instanceof JsonBytes ? JSON.parse(String(Buffer.concat(body.chunks))) : body,
      );
    }
    this.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (typeof json === 'string') {
      this.setHeader('Content-Length', String(Buffer.byteLength(json)));
      this.end(json);
    } else {
      this.setHeader('Content-Length', String(json.reduce((sum, chunk) => sum + chunk.length, 0)));
      endWithChunks(this, json);
    }
    return this;
  };

/** Every JSON answer of the app through `leanJson` (Express's `app.response` is its prototype). */
export const answerJsonLean = (app: Express): void => {
  app.response.json = leanJson(app.response.json as JsonMethod);
};
