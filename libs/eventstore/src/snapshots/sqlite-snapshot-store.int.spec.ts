import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteSnapshotStore } from './sqlite-snapshot-store.js';

describe('SQLite snapshot store', () => {
  let dir: string;
  let store: SqliteSnapshotStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-snapshot-store-'));
    store = new SqliteSnapshotStore(path.join(dir, 'snapshots.sqlite'));
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const snapshot = (revision: number, stateVersion = 1) => ({
    streamId: 'quota-p1',
    revision,
    eventId: `e${revision}`,
    stateVersion,
    state: { revision, nested: { list: [revision] } },
  });

  it('reads nothing for a stream without a snapshot', async () => {
    expect(await store.read('quota-p1')).toBeUndefined();
  });

  it('gives back what was written, per stream', async () => {
    await store.write(snapshot(9));
    await store.write({ ...snapshot(3), streamId: 'quota-p2' });
    expect(await store.read('quota-p1')).toEqual(snapshot(9));
    expect((await store.read('quota-p2'))?.revision).toBe(3);
  });

  it('keeps the newer snapshot when an older one of the same version arrives late', async () => {
    await store.write(snapshot(99));
    await store.write(snapshot(49));
    expect((await store.read('quota-p1'))?.revision).toBe(99);
  });

  it('replaces a snapshot of another state version, even a newer one', async () => {
    await store.write(snapshot(99, 1));
    await store.write(snapshot(49, 2));
    expect(await store.read('quota-p1')).toEqual(snapshot(49, 2));
  });

  it('keeps its snapshots across reopening the file', async () => {
    await store.write(snapshot(9));
    await store.close();
    store = new SqliteSnapshotStore(path.join(dir, 'snapshots.sqlite'));
    expect(await store.read('quota-p1')).toEqual(snapshot(9));
  });
});
