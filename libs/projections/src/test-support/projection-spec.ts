import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { derivedId, type DomainEvent } from '#hawser/domain';
import { SqliteEventStore } from '#hawser/eventstore';
import { ProjectionRunner, SqliteDocumentStore, type Projection } from '#hawser/read-models';

/**
 * given(streams of past events).when(more events).then(read model): the real runner over real
 * SQLite files, so a projection spec exercises exactly what the service runs.
 */
export const projectionSpec = (...projections: Projection[]) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-projection-'));
  const events = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const documents = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
  const runner = new ProjectionRunner(events, documents, projections);
  const past: Array<[string, readonly DomainEvent[]]> = [];
  const next: Array<[string, readonly DomainEvent[]]> = [];
  let counter = 0;

  const append = async (streams: Array<[string, readonly DomainEvent[]]>) => {
    for (const [streamId, stream] of streams) {
      for (const event of stream) {
        counter += 1;
        await events.append(
          streamId,
          [{ id: derivedId('projection-spec', counter), type: event.type, data: event.data }],
          { expectedRevision: 'any' },
        );
      }
    }
  };

  const spec = {
    given(streams: Record<string, readonly DomainEvent[]>) {
      past.push(...Object.entries(streams));
      return spec;
    },
    when(streams: Record<string, readonly DomainEvent[]>) {
      next.push(...Object.entries(streams));
      return spec;
    },
    /**
     * The projection catches up on the past events, then follows the new ones live, as in the
     * service; then the read model is checked.
     */
    async then(check: (docs: SqliteDocumentStore) => Promise<void>) {
      await append(past);
      await runner.start();
      expect(await runner.waitForPosition(await events.headPosition(), 5_000)).toBe(true);
      await append(next);
      expect(await runner.waitForPosition(await events.headPosition(), 5_000)).toBe(true);
      try {
        await check(documents);
      } finally {
        await runner.stop();
        await documents.close();
        await events.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  return spec;
};
