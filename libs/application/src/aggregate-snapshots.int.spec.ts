import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { initialQuotaState, quotaStateBytes, RECENT_WINDOW, type QuotaState } from '#hawser/domain';
import { SqliteSnapshotStore } from '#hawser/eventstore';
import { AggregateSnapshots } from './aggregate-snapshots.js';
import { estimatedBytes } from './estimated-bytes.js';

/** Never due: every state stays in memory only, so a dropped one is gone. */
const IN_MEMORY_ONLY = { stateVersion: 1, every: Number.MAX_SAFE_INTEGER };

/** A quota state whose windows of counted and given back holder ids are full. */
const busyQuota = (): QuotaState => ({
  ...initialQuotaState(),
  usage: { shares: RECENT_WINDOW, gigabytes: RECENT_WINDOW },
  counted: Array.from({ length: RECENT_WINDOW }, () => randomUUID()),
  released: Array.from({ length: RECENT_WINDOW }, () => randomUUID()),
});

const folded = (state: QuotaState, revision: number) => ({
  state,
  revision,
  eventId: `e${revision}`,
  unsnapshotted: revision + 1,
});

describe('aggregate states kept in memory (real SQLite snapshot file)', () => {
  let dir: string;
  let store: SqliteSnapshotStore;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-aggregate-snapshots-'));
    store = new SqliteSnapshotStore(path.join(dir, 'snapshots.sqlite'));
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("given a busy quota state, then its estimates count its 2,000 remembered ids, the quota's own within a tenth of the walk's", () => {
    const busy = busyQuota();
    const walked = estimatedBytes(busy);

    expect(estimatedBytes(initialQuotaState())).toBeLessThan(1_000);
    expect(walked).toBeGreaterThan(2 * RECENT_WINDOW * 50);
    expect(Math.abs(quotaStateBytes(busy) - walked)).toBeLessThan(walked / 10);
    expect(quotaStateBytes(initialQuotaState())).toBeLessThan(2_000);
  });

  it('given a budget of three busy quotas, when five streams are remembered, then the three used last are kept and the bytes stay within it', async () => {
    const budget = 3.5 * estimatedBytes(busyQuota());
    const snapshots = new AggregateSnapshots(store, budget);
    const states = Array.from({ length: 5 }, busyQuota);

    for (const [i, state] of states.entries()) {
      await snapshots.remember(`quota-p${i}`, IN_MEMORY_ONLY, folded(state, i));
      // The first is used again after the second was remembered: the second is then the oldest.
      if (i === 1) await snapshots.latest('quota-p0', IN_MEMORY_ONLY);
    }

    expect(snapshots.bytes).toBeLessThanOrEqual(budget);
    expect(await snapshots.latest('quota-p1', IN_MEMORY_ONLY)).toBeUndefined();
    expect(await snapshots.latest('quota-p0', IN_MEMORY_ONLY)).toBeUndefined();
    for (const i of [2, 3, 4]) {
      const kept = await snapshots.latest<QuotaState>(`quota-p${i}`, IN_MEMORY_ONLY);
      expect(kept?.state).toBe(states[i]);
      expect(kept?.revision).toBe(i);
    }
  });

  it('given small states, when many are remembered, then all within the budget are kept', async () => {
    const snapshots = new AggregateSnapshots(store, 3.5 * estimatedBytes(busyQuota()));

    for (let i = 0; i < 100; i += 1) {
      await snapshots.remember(`quota-q${i}`, IN_MEMORY_ONLY, folded(initialQuotaState(), i));
    }

    expect((await snapshots.latest('quota-q0', IN_MEMORY_ONLY))?.revision).toBe(0);
    expect((await snapshots.latest('quota-q99', IN_MEMORY_ONLY))?.revision).toBe(99);
  });

  it('given a state dropped from memory, when its snapshot was written, then it is read from the store', async () => {
    const snapshots = new AggregateSnapshots(store, estimatedBytes(busyQuota()));
    const everyEvent = { stateVersion: 1, every: 1 };
    const first = busyQuota();

    await snapshots.remember('quota-a', everyEvent, folded(first, 7));
    await snapshots.remember('quota-b', everyEvent, folded(busyQuota(), 3));

    const reread = await snapshots.latest<QuotaState>('quota-a', everyEvent);
    expect(reread?.state).not.toBe(first);
    expect(reread?.state).toEqual(first);
    expect(reread?.revision).toBe(7);
    expect(snapshots.bytes).toBeLessThanOrEqual(estimatedBytes(busyQuota()));
  });
});
