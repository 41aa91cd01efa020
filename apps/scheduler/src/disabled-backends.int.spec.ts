import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '#hawser/eventstore';
import { BACKENDS, backendsProjection, type BackendDocument } from '#hawser/projections';
import { SqliteDocumentStore, type DocumentStore } from '#hawser/read-models';
import { PoolStateRegistry } from '#hawser/scheduler';
import { DisabledBackends } from './disabled-backends.js';

const backend = (disabled: boolean): BackendDocument => ({
  id: 'b1',
  backend: 'b1',
  host: 'node-1@b1',
  availability_zone: 'az-1',
  replication_domain: null,
  driver: 'simulated',
  pools: ['p1'],
  disabled,
  created_at: '2026-11-27T09:00:00.000Z',
  updated_at: '2026-11-27T09:00:00.000Z',
});

const event = (position: number): RecordedEvent =>
  ({
    id: `e${position}`,
    type: 'ShareRequested',
    data: {},
    metadata: { schemaVersion: 1, recordedAt: '' },
    streamId: `share-${position}`,
    revision: 0,
    position,
  }) as RecordedEvent;

describe('disabled back ends before scheduling (real SQLite read models)', () => {
  let dir: string;
  let documents: SqliteDocumentStore;
  let checkpointReads: number;
  let counted: DocumentStore;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-disabled-backends-'));
    documents = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
    checkpointReads = 0;
    counted = new Proxy(documents, {
      get: (target, prop, receiver) =>
        prop === 'readCheckpoint'
          ? (name: string) => {
              checkpointReads += 1;
              return target.readCheckpoint(name);
            }
          : Reflect.get(target, prop, receiver),
    });
    await documents.commit([{ kind: 'put', collection: BACKENDS, document: backend(false) }], {
      name: backendsProjection.name,
      expectedPosition: undefined,
      position: 1,
    });
  });
  afterEach(async () => {
    await documents.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given a page of events handled side by side, then one read answers them all, and a disable committed before the next page holds for it', async () => {
    const disabled = new DisabledBackends(counted, new PoolStateRegistry());
    const seen: boolean[] = [];
    const guarded = disabled.guard({
      name: 'scheduling',
      streamsApart: true,
      handle: async () => {
        seen.push(disabled.has('b1'));
      },
    });

    await Promise.all([event(2), event(3), event(4)].map((e) => guarded.handle(e)));
    const readsForOnePage = checkpointReads;
    await documents.commit([{ kind: 'put', collection: BACKENDS, document: backend(true) }], {
      name: backendsProjection.name,
      expectedPosition: 1,
      position: 5,
    });
    await guarded.handle(event(6));

    expect(readsForOnePage).toBe(1);
    expect(checkpointReads).toBe(2);
    expect(seen).toEqual([false, false, false, true]);
  });
});
