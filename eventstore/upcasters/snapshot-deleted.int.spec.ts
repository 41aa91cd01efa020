import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '#hawser/eventstore';
import { createUpcasters } from '../catalogue.js';
import { shareEvents } from '../decoders.js';

const STREAM = 'share-7b1f0c8e-2d4a-4f7e-9a51-3c6d2e8f1a90';
const AT = '2026-01-01T00:00:00.000Z';

describe('SnapshotDeleted v1 events in an existing SQLite log', () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
    file = path.join(dir, 'events.sqlite');
    // Written as a release before v2 wrote them: at v1, the project present or absent.
    const before = new SqliteEventStore({ file });
    await before.append(
      STREAM,
      [
        {
          id: randomUUID(),
          type: 'SnapshotDeleted',
          data: { snapshotId: 'snap-old', deletedAt: AT },
          metadata: { schemaVersion: 1 },
        },
        {
          id: randomUUID(),
          type: 'SnapshotDeleted',
          data: { snapshotId: 'snap-newer', projectId: 'project-a', deletedAt: AT },
          metadata: { schemaVersion: 1 },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await before.close();
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given v1 events, when read through the decoder, then they have the v2 shape', async () => {
    const store = new SqliteEventStore({ file, upcasters: createUpcasters() });

    const decoded = (await store.readStream(STREAM)).map((e) => shareEvents.decode(e));
    await store.close();

    expect(decoded.map((e) => [e.type, e.metadata.schemaVersion, e.data])).toEqual([
      ['SnapshotDeleted', 2, { snapshotId: 'snap-old', projectId: null, deletedAt: AT }],
      ['SnapshotDeleted', 2, { snapshotId: 'snap-newer', projectId: 'project-a', deletedAt: AT }],
    ]);
  });

  it('given a store that does not upcast, then the decoder upcasts the stored v1 itself', async () => {
    const raw = new SqliteEventStore({ file });

    const [first] = (await raw.readStream(STREAM)).map((e) => shareEvents.decode(e));
    await raw.close();

    expect(first?.data).toEqual({ snapshotId: 'snap-old', projectId: null, deletedAt: AT });
  });

  it('when a new SnapshotDeleted is appended, then it is stored at v2 beside the v1 events', async () => {
    const store = new SqliteEventStore({ file, upcasters: createUpcasters() });
    await store.append(
      STREAM,
      [
        {
          id: randomUUID(),
          type: 'SnapshotDeleted',
          data: { snapshotId: 'snap-new', projectId: 'project-b', deletedAt: AT },
        },
      ],
      { expectedRevision: 1 },
    );
    await store.close();

    const raw = new SqliteEventStore({ file });
    const stored = await raw.readStream(STREAM);
    await raw.close();
    expect(stored.map((e) => e.metadata.schemaVersion)).toEqual([1, 1, 2]);
  });
});
