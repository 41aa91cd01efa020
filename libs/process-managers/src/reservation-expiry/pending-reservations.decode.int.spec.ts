import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteEventStore } from '#hawser/eventstore';
import { SqliteDocumentStore } from '#hawser/read-models';
import { ProcessManagerRunner } from '../runtime/process-manager-runner.js';
import { pendingReservationsProcessManager } from './pending-reservations.process-manager.js';

describe('a process manager given an event its decoder refuses', () => {
  let dir: string;
  let events: SqliteEventStore;
  let documents: SqliteDocumentStore;
  let runner: ProcessManagerRunner;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
    events = new SqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    documents = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
    runner = new ProcessManagerRunner(events, documents, [pendingReservationsProcessManager()], {
      retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
    });
  });
  afterEach(async () => {
    await runner.stop();
    await documents.close();
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a ShareRequested newer than the catalogue, then it is retried and parked, not skipped', async () => {
    const stream = `share-${randomUUID()}`;
    await events.append(
      stream,
      [
        {
          id: randomUUID(),
          type: 'ShareRequested',
          data: { shareId: 's-1' },
          metadata: { schemaVersion: 9 },
        },
      ],
      { expectedRevision: 'no_stream' },
    );

    await runner.start();
    expect(await runner.waitForPosition(await events.headPosition(), 5_000)).toBe(true);

    expect(await runner.listParked()).toEqual([
      expect.objectContaining({
        processManager: 'pending-reservations',
        eventType: 'ShareRequested',
        streamId: stream,
        attempts: 2,
        error: `cannot decode ShareRequested v9 at ${stream}@0 as a share event: newer version`,
      }),
    ]);
  });
});
