import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { EventStore, NewEvent } from '#hawser/eventstore';
import { EVENT_STORE } from '#hawser/platform';
import { createReadableType } from '../../hawser/src/test-support/replicated-share.js';
import { simulatedBackends } from '../../hawser/src/test-support/simulated-backends.js';
import {
  eventually,
  startHawser,
  type HawserTestServer,
} from '../../hawser/src/test-support/hawser-test-server.js';
import {
  describeInBrowser,
  launchBrowser,
  progressSeen,
  recordProgress,
  screenshot,
  signIn,
} from './test-support/console-browser.js';

// noauth's `user:project` without roles is an admin, as in Manila.
const ADMIN = 'root:55555555555555555555555555555555';
const SLOW = 60_000;

/** An available share made through the API; its id. */
const createShare = async (hawser: HawserTestServer, name: string): Promise<string> => {
  const created = await hawser.request('POST', '/v2/shares', {
    share: { share_proto: 'NFS', size: 1, share_type: 'readable', name },
  });
  expect(created.status).toBe(200);
  return created.body.share.id as string;
};

const streamOf = async (hawser: HawserTestServer, shareId: string) =>
  (await hawser.request('GET', `/hawser/v1/streams/share-${shareId}?limit=1000`)).body.events as {
    type: string;
    data: unknown;
  }[];

describeInBrowser('web console operator pages in Chromium, against a real Hawser', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterEach(async () => {
    await page?.close();
  });

  describe('on a log of some 40,000 share events', () => {
    let hawser: HawserTestServer;

    /**
     * Ten shares with a metadata item each, set through the API; then each share's
     * ShareMetadataChanged appended again 4,000 times to its stream (new ids, the same data), as a
     * busy project would have made them, so that a rebuild of the shares read model takes a
     * while to read the log.
     */
    beforeAll(async () => {
      hawser = await startHawser({});
      await createReadableType(hawser.request);
      const store = hawser.app.get<EventStore>(EVENT_STORE);
      for (let s = 0; s < 10; s += 1) {
        const id = await createShare(hawser, `busy-${s}`);
        const set = await hawser.request('POST', `/v2/shares/${id}/metadata`, {
          metadata: { team: `team-${s}` },
        });
        expect(set.status).toBe(200);
        const metadataChanged = (await streamOf(hawser, id)).find(
          (e) => e.type === 'ShareMetadataChanged',
        );
        expect(metadataChanged).toBeDefined();
        for (let batch = 0; batch < 40; batch += 1) {
          const copies: NewEvent[] = Array.from({ length: 100 }, () => ({
            id: randomUUID(),
            type: 'ShareMetadataChanged',
            data: metadataChanged?.data,
          }));
          await store.append(`share-${id}`, copies, { expectedRevision: 'any' });
        }
      }
      const head = await store.headPosition();
      await eventually(
        async () => {
          const { body } = await hawser.request('GET', '/hawser/v1/projections');
          const all = body.projections as { position: number }[];
          return all.every((p) => p.position >= head) ? true : undefined;
        },
        SLOW,
        'the read models to catch up with the log',
        200,
      );
    }, 3 * SLOW);
    afterAll(async () => {
      await hawser?.close();
    });

    it(
      "an admin rebuilds the shares read model and watches its bar rise with the rebuild's position against the log's head, to 100",
      async () => {
        await signIn(page, hawser.url, ADMIN);
        await page.getByRole('link', { name: 'Projections' }).click();
        const row = page.getByRole('row').filter({ hasText: /^shares/ });
        await row.getByRole('button', { name: 'Rebuild shares' }).waitFor();
        await recordProgress(page, 'Rebuilding shares');

        // The API's own figures, read while the page shows them.
        const reported: number[] = [];
        let rebuilt = false;
        const watching = (async () => {
          while (!rebuilt) {
            const { body } = await hawser.request('GET', '/hawser/v1/projections');
            const shares = (
              body.projections as { name: string; rebuild?: { percent: number } }[]
            ).find((p) => p.name === 'shares');
            if (shares?.rebuild) reported.push(shares.rebuild.percent);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        })();
        await row.getByRole('button', { name: 'Rebuild shares' }).click();
        await page
          .getByRole('status')
          .getByText(/^shares rebuilt in \d+ ms\.$/)
          .waitFor({
            timeout: SLOW,
          });
        rebuilt = true;
        await watching;

        const seen = await progressSeen(page);
        expect(seen[seen.length - 1]).toBe(100);
        expect(seen.filter((p) => p > 0 && p < 100).length).toBeGreaterThan(0);
        expect(seen).toEqual([...seen].sort((a, b) => a - b));
        expect(reported.filter((p) => p > 0 && p < 100).length).toBeGreaterThan(0);
        expect(reported).toEqual([...reported].sort((a, b) => a - b));
        const after = (await hawser.request('GET', '/hawser/v1/projections')).body.projections.find(
          (p: { name: string }) => p.name === 'shares',
        );
        expect(after).toMatchObject({ rebuilding: false });
        expect(after.rebuild).toBeUndefined();
        await screenshot(page, 'projections');
        // The rebuilt read model answers as before.
        const listed = await hawser.request('GET', '/v2/shares/detail?name~=busy-&limit=100');
        expect(listed.body.shares).toHaveLength(10);
        expect(
          (await hawser.request('GET', `/v2/shares/${listed.body.shares[0].id}/metadata`)).body
            .metadata,
        ).toMatchObject({ team: expect.stringMatching(/^team-\d$/) as string });
      },
      2 * SLOW,
    );
  });

  describe('with a share node whose event store another process has locked', () => {
    let hawser: HawserTestServer;

    // The simulated driver takes 5 s to create a share: time to take the lock meanwhile. A busy
    // store is a storage failure, whose parked events the node retries by itself every
    // HAWSER_STORAGE_RETRY_INTERVAL_MS; set past the test, the event waits for the admin's retry
    // (at the default 5 s the node's own retry could take it off the page first).
    beforeAll(async () => {
      hawser = await startHawser({
        backends: () => simulatedBackends({ operationLatencyMs: { createShare: 5_000 } }),
        env: { HAWSER_STORAGE_RETRY_INTERVAL_MS: String(10 * SLOW) },
      });
      await createReadableType(hawser.request);
    }, SLOW);
    afterAll(async () => {
      await hawser?.close();
    });

    /**
     * Another process holds the write lock of `events.sqlite` (as a `sqlite3` shell left in a
     * transaction would): every append waits SQLite's busy timeout and fails. Resolves once held.
     */
    const lockEventStore = async (): Promise<ChildProcessWithoutNullStreams> => {
      const file = path.join(hawser.dataDir, 'events.sqlite');
      const holder = spawn(process.execPath, [
        '--input-type=commonjs',
        '-e',
        `const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
         db.exec('BEGIN IMMEDIATE');
         process.stdout.write('locked\\n');
         process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });`,
      ]);
      await once(holder.stdout, 'data');
      return holder;
    };
    const release = async (holder: ChildProcessWithoutNullStreams) => {
      const exited = once(holder, 'exit');
      holder.stdin.write('commit\n');
      await exited;
    };

    it(
      'a share whose creation outcome could not be recorded is parked; once the lock is gone, an admin retries it from the page and the share becomes available',
      async () => {
        const shareId = await createShare(hawser, 'locked-out');
        await eventually(
          async () =>
            (await streamOf(hawser, shareId)).some((e) => e.type === 'ShareDriverOperationStarted')
              ? true
              : undefined,
          20_000,
          'the share node to claim the create',
          20,
        );
        const holder = await lockEventStore();
        // The driver answers, the node cannot append the outcome, retries with back-off, parks it.
        const parked = await eventually(
          async () => {
            const { body } = await hawser.request('GET', '/hawser/v1/parked-events');
            return body.parked_events.length > 0
              ? (body.parked_events as { event_type: string; error: string }[])
              : undefined;
          },
          2 * SLOW,
          'the reaction to be parked',
          500,
        ).finally(() => release(holder));
        expect(parked).toHaveLength(1);
        expect(parked[0]).toMatchObject({
          event_type: 'ShareScheduled',
          stream_id: `share-${shareId}`,
          error: expect.stringMatching(/database is locked/) as string,
        });
        expect((await hawser.request('GET', `/v2/shares/${shareId}`)).body.share.status).toBe(
          'creating',
        );

        await signIn(page, hawser.url, ADMIN);
        await page.getByRole('link', { name: 'Parked events' }).click();
        const row = page.getByRole('row').filter({ hasText: 'database is locked' });
        await row.waitFor();
        await screenshot(page, 'parked-events');
        await row.getByRole('button', { name: `Retry ShareScheduled of share-${shareId}` }).click();
        await page
          .getByRole('status')
          .getByText('ShareScheduled went through this time.')
          .waitFor();
        await page.getByText('No parked events.').waitFor();
        expect(
          (await hawser.request('GET', '/hawser/v1/parked-events')).body.parked_events,
        ).toEqual([]);

        // The share reaches its state: the outcome the driver gave is recorded, once.
        await page.goto(`${hawser.url}/ui/#/shares/${shareId}`);
        await page.getByTestId('share-status').getByText('available').waitFor({ timeout: 20_000 });
        expect((await hawser.request('GET', `/v2/shares/${shareId}`)).body.share.status).toBe(
          'available',
        );
        const types = (await streamOf(hawser, shareId)).map((e) => e.type);
        expect(types.filter((t) => t === 'ShareDriverOperationStarted')).toHaveLength(1);
      },
      3 * SLOW,
    );
  });
});
