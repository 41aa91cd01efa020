import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteEventStore, type SqliteEventStoreOptions } from '#hawser/eventstore';
import type { Projection } from '../projection/projection.js';
import { ProjectionRunner, type ProjectionRunnerOptions } from '../projection/projection-runner.js';
import { SqliteDocumentStore } from '../sqlite/sqlite-document-store.js';

/** A log and a read-model store in a fresh directory, with a runner of `projections` on them. */
export interface LiveProjections {
  readonly dir: string;
  readonly eventStore: SqliteEventStore;
  readonly documents: SqliteDocumentStore;
  readonly runner: ProjectionRunner;
  /** Whether every projection reached the log's head (within 10 s). */
  caughtUp(): Promise<boolean>;
  close(): Promise<void>;
}

/** Runs `given` on the fresh log, then starts the runner and waits until it has caught up. */
export const startLiveProjections = async (
  projections: Projection[],
  given: (eventStore: SqliteEventStore) => Promise<unknown>,
  options: ProjectionRunnerOptions = {},
  storeOptions: Omit<SqliteEventStoreOptions, 'file'> = {},
): Promise<LiveProjections> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
  const eventStore = new SqliteEventStore({
    ...storeOptions,
    file: path.join(dir, 'events.sqlite'),
  });
  const documents = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
  await given(eventStore);
  const runner = new ProjectionRunner(eventStore, documents, projections, options);
  const caughtUp = async () => runner.waitForPosition(await eventStore.headPosition(), 10_000);
  await runner.start();
  if (!(await caughtUp())) throw new Error('the projections did not catch up');
  return {
    dir,
    eventStore,
    documents,
    runner,
    caughtUp,
    close: async () => {
      await runner.stop();
      await documents.close();
      await eventStore.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
};
