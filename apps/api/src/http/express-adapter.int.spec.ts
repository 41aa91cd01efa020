import 'reflect-metadata';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Module,
  NotFoundException,
  Param,
  Post,
  type INestApplication,
  type NestApplicationOptions,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { ExpressAdapterWithPrototypes } from './express-adapter.js';
import { rawAnswer } from './test-support/raw-answer.js';

@Controller('things')
class ThingsController {
  @Get(':id')
  show(@Param('id') id: string): object {
    if (id === 'missing') throw new NotFoundException(`Thing ${id} could not be found.`);
    return { thing: { id, name: 'naïve ☃', size: 1 } };
  }

  @Post()
  @HttpCode(202)
  create(@Body() body: unknown): object {
    return { created: body };
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

interface Served {
  readonly app: INestApplication;
  readonly server: Server;
  /** Whether each request and response had the Express app's prototypes as the server made them. */
  readonly madeWithPrototypes: boolean[];
}

const serve = async (
  adapter: ExpressAdapter,
  options: NestApplicationOptions = {},
): Promise<Served> => {
  const app = await NestFactory.create(ThingsModule, adapter, { logger: false, ...options });
  const express = adapter.getInstance<Express>();
  const server = app.getHttpServer() as Server;
  const madeWithPrototypes: boolean[] = [];
  // Before Express, which gives them its prototypes whatever they were.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    madeWithPrototypes.push(
      Object.getPrototypeOf(req) === express.request &&
        Object.getPrototypeOf(res) === express.response,
    );
  });
  await app.listen(0, '127.0.0.1');
  return { app, server, madeWithPrototypes };
};

const REQUESTS: readonly (readonly [request: string, body?: string])[] = [
  ['GET /things/t1 HTTP/1.1'],
  ['GET /things/missing HTTP/1.1'],
  ['HEAD /things/t1 HTTP/1.1'],
  ['GET /nowhere HTTP/1.1'],
  ['POST /things HTTP/1.1\r\nContent-Type: application/json', '{"name":"ünïcode","size":2}'],
  ['POST /things HTTP/1.1\r\nContent-Type: application/json', '{"name":'],
];

describe("Nest's Express adapter with requests and responses made with the app's prototypes", () => {
  let nests: Served;
  let ours: Served;

  beforeAll(async () => {
    nests = await serve(new ExpressAdapter());
    ours = await serve(new ExpressAdapterWithPrototypes());
  });
  afterAll(async () => {
    await nests.app.close();
    await ours.app.close();
  });

  it("answers every request byte for byte as Nest's own adapter does", async () => {
    for (const [request, body] of REQUESTS) {
      const expected = await rawAnswer(nests.server, request, body);
      expect(expected).toMatch(/^HTTP\/1\.1 [2-5]\d\d /);
      await expect(rawAnswer(ours.server, request, body)).resolves.toBe(expected);
    }
  });

  it('makes each request and response with the prototypes Express would give them', async () => {
    ours.madeWithPrototypes.length = 0;
    nests.madeWithPrototypes.length = 0;
    for (const [request, body] of REQUESTS) {
      await rawAnswer(ours.server, request, body);
      await rawAnswer(nests.server, request, body);
    }
    expect(ours.madeWithPrototypes).toEqual(REQUESTS.map(() => true));
    // Node's own objects, which Express then gives its prototypes one request at a time.
    expect(nests.madeWithPrototypes).toEqual(REQUESTS.map(() => false));
  });

  it("leaves the server to Nest when an option asks for Nest's own handling of connections", async () => {
    const forced = await serve(new ExpressAdapterWithPrototypes(), { forceCloseConnections: true });
    try {
      const answer = await rawAnswer(forced.server, 'GET /things/t1 HTTP/1.1');
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(forced.madeWithPrototypes).toEqual([false]);
    } finally {
      await forced.app.close();
    }
  });
});
