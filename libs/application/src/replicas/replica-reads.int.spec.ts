import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  evolveShare,
  initialShareState,
  isActiveShare,
  type ActiveShare,
  type ShareEvent,
} from '#hawser/domain';
import {
  SHARE_INSTANCES,
  SHARES,
  toShareRecord,
  toStoredShareInstance,
  type ShareInstanceDocument,
} from '#hawser/projections';
import type { DocumentWrite } from '#hawser/read-models';
import { InterleavedStore } from '../../../read-models/src/test-support/interleaved-store.js';
import { withReplica } from '../../../domain/src/share/test-support/replica-history.js';
import type { Caller } from '../requester.js';
import { ReplicaDocuments } from './replica-documents.js';
import { ReplicaReads } from './replica-reads.js';

const MEMBER: Caller = { userId: 'u1', projectId: 'p1', roles: ['member'], isAdmin: false };
const ADMIN: Caller = { userId: 'admin', projectId: 'admin', roles: ['admin'], isAdmin: true };

/**
 * Replicated share `n` of `project`: its active instance `i<n>` and its replica `r<n>` (in
 * sync, then reset to `replicaState` when given), as `withReplica` tells it, its ids renamed.
 */
const replicatedShare = (
  n: number,
  project: string,
  replicaState?: 'out_of_sync' | 'error',
): ActiveShare => {
  const renamed = JSON.stringify(withReplica())
    .replaceAll('"s1"', `"s${n}"`)
    .replaceAll('"i1"', `"i${n}"`)
    .replaceAll('"r1"', `"r${n}"`)
    .replaceAll('"p1"', `"${project}"`);
  const events = JSON.parse(renamed) as ShareEvent[];
  if (replicaState !== undefined) {
    events.push({
      type: 'ReplicaStateReset',
      data: { replicaId: `r${n}`, replicaState, resetAt: '2026-11-22T11:00:00.000Z' },
    });
  }
  const state = events.reduce(evolveShare, initialShareState());
  if (!isActiveShare(state)) throw new Error('the history makes an active share');
  return state;
};

/** The share's record and its instances, as the shares projection writes them. */
const written = (share: ActiveShare, revision: number): DocumentWrite[] => [
  { kind: 'put', collection: SHARES, document: toShareRecord(share, revision) },
  ...share.instances.map((instance): DocumentWrite => ({
    kind: 'put',
    collection: SHARE_INSTANCES,
    document: toStoredShareInstance(share, instance),
  })),
];

const ids = (docs: readonly ShareInstanceDocument[]) => docs.map((doc) => doc.id);

describe('the replica listing, answered by the store', () => {
  let dir: string;
  let store: InterleavedStore;
  let reads: ReplicaReads;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-replica-reads-'));
    store = new InterleavedStore({ file: path.join(dir, 'read-models.sqlite') });
    reads = new ReplicaReads(store, new ReplicaDocuments());
    // Shares 1 to 4 in p1, 5 and 6 in p2: twelve instances with a replica state.
    for (let n = 1; n <= 6; n += 1) {
      await store.write(written(replicatedShare(n, n <= 4 ? 'p1' : 'p2'), 5));
    }
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given replicas listed before, when they are listed again unchanged, then no share is read whole and the documents are the same', async () => {
    const first = await reads.list(ADMIN, undefined);
    store.readWhole.splice(0);

    const again = await reads.list(ADMIN, undefined);

    expect(store.readWhole).toEqual([]);
    expect(again).toHaveLength(12);
    again.forEach((doc, i) => expect(doc).toBe(first[i]));
  });

  it('given replicas listed before, when one replica changes state, then only its share is read whole and the listing shows the new state', async () => {
    await reads.list(ADMIN, undefined);
    await store.write(written(replicatedShare(3, 'p1', 'out_of_sync'), 6));
    store.readWhole.splice(0);

    const again = await reads.list(ADMIN, undefined);

    expect(store.readWhole).toEqual(['s3']);
    expect(again.find((doc) => doc.id === 'r3')).toMatchObject({
      replica_state: 'out_of_sync',
      revision: 6,
    });
    expect(again.find((doc) => doc.id === 'r2')?.replica_state).toBe('in_sync');
  });

  it("given a window, then it holds the listing's replicas from its offset, and only its shares are read", async () => {
    const all = await reads.list(ADMIN, undefined);
    const kept = new InterleavedStore({ file: path.join(dir, 'read-models.sqlite') });
    const fresh = new ReplicaReads(kept, new ReplicaDocuments());

    const window = await fresh.list(ADMIN, undefined, { offset: 3, limit: 4 });

    expect(ids(window)).toEqual(ids(all.slice(3, 7)));
    expect(new Set(kept.readWhole)).toEqual(new Set(window.map((doc) => doc.share_id)));
    expect(await fresh.list(ADMIN, undefined, { offset: 11 })).toHaveLength(1);
    expect(await fresh.list(ADMIN, undefined, { offset: 0, limit: 0 })).toEqual([]);
    await kept.close();
  });

  it("given replicas created at different times, then an admin's, a member's and a share's listings hold them newest first, ties by id", async () => {
    const admin = ids(await reads.list(ADMIN, undefined));
    const member = ids(await reads.list(MEMBER, undefined));
    const ofShare = ids(await reads.list(MEMBER, 's4'));

    // Each share's replica r<n> was added after its first instance i<n> was created.
    expect(admin).toEqual(['r6', 'r5', 'r4', 'r3', 'r2', 'r1', 'i6', 'i5', 'i4', 'i3', 'i2', 'i1']);
    expect(member).toEqual(['r4', 'r3', 'r2', 'r1', 'i4', 'i3', 'i2', 'i1']);
    expect(ofShare).toEqual(['r4', 'i4']);
  });

  it("given a member, then its own project's replicas are listed, and an admin's listing holds every project's", async () => {
    const member = await reads.list(MEMBER, undefined);
    const admin = await reads.list(ADMIN, undefined);

    expect(member).toHaveLength(8);
    expect(new Set(member.map((doc) => doc.project_id))).toEqual(new Set(['p1']));
    expect(new Set(admin.map((doc) => doc.project_id))).toEqual(new Set(['p1', 'p2']));
  });

  it('given a share deleted between the listing of replicas and the read of the shares, then its replicas are left out', async () => {
    store.writesBetweenReads = [{ kind: 'delete', collection: SHARES, id: 's2' }];

    const listed = await reads.list(ADMIN, undefined);

    expect(listed).toHaveLength(10);
    expect(listed.some((doc) => doc.share_id === 's2')).toBe(false);
  });

  it("given a share id, then that share's replicas are listed, as kept for its revision", async () => {
    const first = await reads.list(MEMBER, 's4');
    const again = await reads.list(MEMBER, 's4');

    expect(ids(first).sort()).toEqual(['i4', 'r4']);
    again.forEach((doc, i) => expect(doc).toBe(first[i]));
    expect(await reads.list(MEMBER, 's5')).toEqual([]);
  });
});
