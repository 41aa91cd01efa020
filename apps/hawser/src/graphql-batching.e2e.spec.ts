import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DOCUMENT_STORE, loadConfig } from '#hawser/platform';
import { SqliteDocumentStore } from '#hawser/read-models';
import { ExpressAdapterWithPrototypes } from '../../api/src/http/express-adapter.js';
import { configureHawserApp, HawserModule } from './hawser.app.js';
import { CountingDocumentStore } from './test-support/counting-document-store.js';
import { graphqlRequest } from './test-support/graphql-client.js';
import { eventually } from './test-support/hawser-test-server.js';
import { manilaRequest } from './test-support/manila-http.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const MEMBER = 'alice:22222222222222222222222222222222:member,reader';
const SHARES = 100;

describe('GraphQL batching (a real SQLite read-model store, its reads counted)', () => {
  let dataDir: string;
  let app: NestExpressApplication;
  let store: CountingDocumentStore;
  let url: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-test-'));
    const config = loadConfig({
      HAWSER_DATA_DIR: dataDir,
      HAWSER_AUTH: 'noauth',
      HAWSER_QUOTA_SHARES: '-1',
      HAWSER_QUOTA_GIGABYTES: '-1',
    });
    store = new CountingDocumentStore(
      new SqliteDocumentStore({ file: path.join(dataDir, 'read-models.sqlite') }),
    );
    const moduleRef = await Test.createTestingModule({
      imports: [HawserModule.forRoot(config, simulatedBackends())],
    })
      .overrideProvider(DOCUMENT_STORE)
      .useValue(store)
      .compile();
    // The same HTTP server as the service's (`createHawserApp`).
    app = moduleRef.createNestApplication<NestExpressApplication>(
      new ExpressAdapterWithPrototypes(),
      {
        bodyParser: false,
        logger: false,
      },
    );
    configureHawserApp(app, config);
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;

    const type = await manilaRequest(url, 'POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    expect(type.status).toBe(200);
    for (let i = 0; i < SHARES; i += 1) {
      const created = await manilaRequest(
        url,
        'POST',
        '/v2/shares',
        { share: { share_proto: 'NFS', size: 1, name: `s${i}`, share_type: 'default' } },
        { token: MEMBER },
      );
      expect(created.status).toBe(200);
    }
    await eventually(
      async () => {
        const listed = await manilaRequest(
          url,
          'GET',
          '/v2/shares/detail?status=available',
          undefined,
          {
            token: MEMBER,
          },
        );
        return listed.body.shares.length === SHARES ? true : undefined;
      },
      30_000,
      'every share to be available',
    );
  }, 60_000);

  afterAll(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The reads one GraphQL request makes of the read models. */
  const readsOf = async (first: number) => {
    const before = store.reads.length;
    const result = await graphqlRequest(
      url,
      `query($first: Int!) { shares(first: $first) { nodes {
        id replicas { id status share { id } } snapshots { id } accessRules { id } } } }`,
      { first },
      MEMBER,
    );
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.shares.nodes).toHaveLength(first);
    for (const share of result.body.data.shares.nodes) {
      expect(share.replicas).toEqual([
        { id: expect.any(String), status: 'available', share: { id: share.id } },
      ]);
    }
    // The storage-failure retry timer lists parked events every few seconds on its own; that
    // read is no part of the request's.
    return store.reads.slice(before).filter((read) => read.collection !== 'parked_events');
  };

  it('lists 100 shares with their replicas, snapshots, rules and replica shares in one query per kind', async () => {
    const reads = await readsOf(SHARES);
    expect(reads.map((read) => `${read.method} ${read.collection}`).sort()).toEqual([
      // A full page asks the index how many shares there are, to know whether more follow.
      'count shares',
      'find access_rules',
      'find snapshots',
      // The page's ids and revisions only: the listing that waited for every share to be
      // available keeps their documents at the revisions they still have.
      'findVersions shares',
      // The replicas, from their shares' records, which hold them; then the replicas' shares.
      'getMany shares',
      'getMany shares',
    ]);
    // The same number for 10 shares: the cost does not grow with the list.
    expect(await readsOf(10)).toHaveLength(reads.length);
  });
});
