import { evolveShare, initialShareState, isActiveShare, type ShareEvent } from '#hawser/domain';
import { SHARES, toShareRecord, type ShareRecord } from '#hawser/projections';
import { SqliteDocumentStore } from '#hawser/read-models';
import { shareRequested } from '../../../domain/src/share/test-support/share-history.js';
import type { Caller } from '../requester.js';
import { ShareDocuments } from './share-documents.js';
import { ShareReads } from './share-reads.js';

const PROJECT = 'p1';
const OWNER: Caller = { userId: 'u1', projectId: PROJECT, roles: ['member'], isAdmin: false };
const shareId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

const recordOf = (i: number, name: string): ShareRecord => {
  const event: ShareEvent = shareRequested(
    {},
    { shareId: shareId(i), name, projectId: PROJECT, userId: 'u1' },
  );
  const state = evolveShare(initialShareState(), event);
  if (!isActiveShare(state)) throw new Error('the event makes an active share');
  return toShareRecord(state, 1);
};

describe('ShareReads.find with the record the request already read', () => {
  let store: SqliteDocumentStore;
  let reads: ShareReads;

  beforeEach(async () => {
    store = new SqliteDocumentStore({ file: ':memory:' });
    reads = new ShareReads(store, new ShareDocuments());
    await store.write([{ kind: 'put', collection: SHARES, document: recordOf(1, 'stored') }]);
  });
  afterEach(() => store.close());

  it('given the record read a moment before, then the share is answered from it, not read again', async () => {
    const read = recordOf(1, 'as the guard read it');

    const shown = await reads.find(shareId(1), OWNER, read);

    expect(shown.name).toBe('as the guard read it');
  });

  it("given another share's record, then the asked share is read from the store", async () => {
    const shown = await reads.find(shareId(1), OWNER, recordOf(2, 'another'));

    expect(shown.name).toBe('stored');
  });

  it('given a record of a share the caller may not see, then the answer is the 404 all the same', async () => {
    const stranger: Caller = { ...OWNER, projectId: 'p2' };

    await expect(reads.find(shareId(1), stranger, recordOf(1, 'read'))).rejects.toMatchObject({
      status: 404,
    });
  });
});
