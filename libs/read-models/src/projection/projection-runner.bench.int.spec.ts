import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteEventStore } from '#hawser/eventstore';
import { SqliteDocumentStore } from '../sqlite/sqlite-document-store.js';
import type { Projection } from './projection.js';
import { ProjectionRunner } from './projection-runner.js';

const eventCount = Number(process.env['HAWSER_BENCH_EVENTS'] ?? 0);

// A benchmark, not a check: it runs only when asked for (HAWSER_BENCH_EVENTS=1000000).
const describeBench = eventCount > 0 ? describe : describe.skip;

/** A share listing: one document per stream, updated by every event. */
const listing: Projection = {
  name: 'listing',
  collections: ['listing'],
  filter: { streamPrefixes: ['share-'] },
  async handle(event, ctx) {
    const current = await ctx.get<{ id: string; events: number }>('listing', event.streamId);
    ctx.put('listing', {
      id: event.streamId,
      project_id: (event.data as { project: string }).project,
      status: event.type,
      events: (current?.events ?? 0) + 1,
      updated_at: event.metadata.recordedAt,
    });
  },
};

describeBench(
  eventCount > 0
    ? `projection catch-up benchmark (HAWSER_BENCH_EVENTS=${eventCount})`
    : 'projection catch-up benchmark (skipped: set HAWSER_BENCH_EVENTS=N to run it)',
  () => {
    it('rebuilds a listing from the whole log', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
      const events = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
      const documents = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
      const perStream = 10;
      let started = performance.now();
      for (let stream = 0; stream < eventCount / perStream; stream += 1) {
        const batch = Array.from({ length: perStream }, (_, i) => ({
          id: randomUUID(),
          type: i === 0 ? 'ShareRequested' : 'ShareUpdated',
          data: { project: `p${stream % 100}`, size: 1 },
        }));
        await events.append(`share-${stream}`, batch, { expectedRevision: 'any' });
      }
      const appendMs = performance.now() - started;
      const runner = new ProjectionRunner(events, documents, [listing]);

      started = performance.now();
      await runner.start();
      const reached = await runner.waitForPosition(await events.headPosition(), 600_000);
      const catchUpMs = performance.now() - started;
      started = performance.now();
      await runner.rebuild('listing');
      const rebuildMs = performance.now() - started;
      await runner.stop();

      expect(reached).toBe(true);
      expect(await documents.count('listing')).toBe(eventCount / perStream);
      process.stdout.write(
        `${eventCount} events: appended in ${appendMs.toFixed(0)} ms, caught up in ` +
          `${catchUpMs.toFixed(0)} ms, rebuilt in ${rebuildMs.toFixed(0)} ms\n`,
      );
      await documents.close();
      await events.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }, 900_000);

    it('shows a live append in the read model within milliseconds', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
      const events = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
      const documents = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
      const runner = new ProjectionRunner(events, documents, [listing]);
      await runner.start();
      const latencies: number[] = [];
      for (let i = 0; i < 200; i += 1) {
        const started = performance.now();
        const { position } = await events.append(
          `share-${i}`,
          [{ id: randomUUID(), type: 'ShareRequested', data: { project: 'p1' } }],
          { expectedRevision: 'no_stream' },
        );
        expect(await runner.waitForPosition(position, 5_000)).toBe(true);
        latencies.push(performance.now() - started);
      }
      await runner.stop();
      latencies.sort((a, b) => a - b);
      const at = (q: number) => (latencies[Math.floor(q * (latencies.length - 1))] ?? 0).toFixed(2);
      process.stdout.write(`append to visible: median ${at(0.5)} ms, p99 ${at(0.99)} ms\n`);
      await documents.close();
      await events.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
  },
);
