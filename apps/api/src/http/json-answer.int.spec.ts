import type { Server } from 'node:net';
import express, { type Express } from 'express';
import {
  answerJsonLean,
  jsonArrayChunks,
  JsonBytes,
  type JsonChunks,
  jsonObjectChunks,
  keptJson,
} from './json-answer.js';
import { rawAnswer } from './test-support/raw-answer.js';

const VIEW = { id: 's1', name: 'naïve ☃ share', size: 1, metadata: { tier: 'gold' }, links: [] };
const LARGE = { shares: Array.from({ length: 50 }, (_, i) => ({ ...VIEW, id: `s${i}` })) };

/** What each route answers: the same value on both apps, as an object or as its JSON bytes. */
const answers: Record<string, { status: number; value: unknown }> = {
  small: { status: 200, value: VIEW },
  large: { status: 200, value: LARGE },
  created: { status: 202, value: { share: VIEW } },
  empty: { status: 204, value: { share: VIEW } },
  null: { status: 200, value: null },
  text: { status: 200, value: 'a string' },
};

/** A value's JSON as the chunks a listing splices: each share's kept bytes, or the whole kept. */
const chunksOf = (value: object): JsonChunks =>
  value === LARGE
    ? jsonObjectChunks([['shares', jsonArrayChunks(LARGE.shares.map((share) => keptJson(share)))]])
    : [keptJson(value)];

const text = (chunks: JsonChunks): string => String(Buffer.concat(chunks));

/** How many answers the lean app left to Express's own res.json. */
let leftToExpress = 0;

const appAnswering = (lean: boolean): Express => {
  const app = express();
  app.set('etag', false);
  if (lean) {
    const expressJson = app.response.json;
    app.response.json = function json(this: express.Response, body: unknown) {
      leftToExpress += 1;
      return expressJson.call(this, body);
    };
    answerJsonLean(app);
  }
  app.get('/typed/:name', (req, res) => {
    res.type('application/vnd.api+json');
    res.json(answers[req.params.name]?.value);
  });
  app.all('/:name', (req, res) => {
    const { status, value } = answers[req.params.name] ?? { status: 404, value: {} };
    const asBytes = lean && req.query.as === 'bytes' && typeof value === 'object' && value !== null;
    res.status(status).json(asBytes ? new JsonBytes(chunksOf(value)) : value);
  });
  return app;
};

describe("JSON answers written without Express's res.json, byte for byte as it writes them", () => {
  let expressServer: Server;
  let leanServer: Server;

  beforeAll(async () => {
    const listen = (app: Express) =>
      new Promise<Server>((resolve) => {
        const server = app.listen(0, '127.0.0.1', () => resolve(server));
      });
    expressServer = await listen(appAnswering(false));
    leanServer = await listen(appAnswering(true));
  });
  afterAll(async () => {
    await new Promise((resolve) => expressServer.close(resolve));
    await new Promise((resolve) => leanServer.close(resolve));
  });

  it.each([
    ['GET /small', 'written lean'],
    ['GET /large', 'written lean'],
    ['POST /created', 'written lean'],
    ['GET /null', 'written lean'],
    ['GET /text', 'written lean'],
    ['DELETE /empty', 'left to Express'],
    ['HEAD /large', 'left to Express'],
    ['GET /large\r\nIf-None-Match: *', 'left to Express'],
    ['GET /large\r\nIf-Modified-Since: Thu, 01 Jan 2037 00:00:00 GMT', 'left to Express'],
    ['GET /typed/small', 'left to Express'],
  ])(
    'given the same value, when %j is answered (%s), then both write the same bytes',
    async (request, how) => {
      const [path, ...headers] = request.split('\r\n');
      const line = [`${path ?? ''} HTTP/1.1`, ...headers].join('\r\n');
      const before = leftToExpress;

      const byExpress = await rawAnswer(expressServer, line);
      const lean = await rawAnswer(leanServer, line);

      expect(byExpress).toMatch(/^HTTP\/1\.1 \d{3}/);
      expect(lean).toBe(byExpress);
      expect(leftToExpress - before).toBe(how === 'written lean' ? 0 : 1);
    },
  );

  it.each([['GET /small'], ['GET /large'], ['POST /created'], ['HEAD /small']])(
    'given a value answered as its kept JSON chunks, when %j is answered, then the bytes are those of the value',
    async (request) => {
      const [method, path] = request.split(' ');
      const byExpress = await rawAnswer(expressServer, `${method} ${path} HTTP/1.1`);

      const asBytes = await rawAnswer(leanServer, `${method} ${path}?as=bytes HTTP/1.1`);

      expect(asBytes).toBe(byExpress);
    },
  );

  it('given members whose values are JSON already, when spliced, then the bytes are those of the object', () => {
    const links = [{ href: 'http://h/v2/shares?marker=s1', rel: 'next' }];

    const chunks = jsonObjectChunks([
      ['shares', jsonArrayChunks(LARGE.shares.map((share) => keptJson(share)))],
      ['shares_links', Buffer.from(JSON.stringify(links))],
      ['count', Buffer.from('50')],
    ]);

    expect(text(chunks)).toBe(
      JSON.stringify({ shares: LARGE.shares, shares_links: links, count: 50 }),
    );
    expect(text(jsonObjectChunks([]))).toBe('{}');
    expect(text(jsonArrayChunks([]))).toBe('[]');
    expect(text(jsonObjectChunks([['share', keptJson(VIEW)]]))).toBe(
      JSON.stringify({ share: VIEW }),
    );
  });

  it('given a kept value, when its JSON is asked for twice, then it is made once', () => {
    const value = { id: 'once' };
    const first = keptJson(value);
    Object.defineProperty(value, 'id', { value: 'changed', enumerable: true });

    expect(keptJson(value)).toBe(first);
  });
});
