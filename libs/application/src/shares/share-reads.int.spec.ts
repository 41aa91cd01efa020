import { evolveShare, initialShareState, isActiveShare, type ShareEvent } from '#hawser/domain';
import {
  ACCESS_RULES,
  SHARES,
  toShareRecord,
  type AccessRuleDocument,
  type ShareRecord,
} from '#hawser/projections';
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

describe('ShareReads.findFor with the record the request already read', () => {
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

    const shown = await reads.findFor(shareId(1), { caller: OWNER, checkedShare: read });

    expect(shown.name).toBe('as the guard read it');
  });

  it("given another share's record, then the asked share is read from the store", async () => {
    const shown = await reads.findFor(shareId(1), {
      caller: OWNER,
      checkedShare: recordOf(2, 'another'),
    });

    expect(shown.name).toBe('stored');
  });

  it('given a record of a share the caller may not see, then the answer is the 404 all the same', async () => {
    const stranger: Caller = { ...OWNER, projectId: 'p2' };

    await expect(
      reads.findFor(shareId(1), { caller: stranger, checkedShare: recordOf(1, 'read') }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});

const ruleOn = (id: string, share: string): AccessRuleDocument => ({
  id,
  revision: 2,
  share_id: share,
  project_id: PROJECT,
  access_type: 'ip',
  access_to: '10.0.0.1',
  access_level: 'rw',
  access_key: null,
  state: 'queued_to_apply',
  instance_states: {},
  metadata: {},
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe('ShareReads.accessRuleOf a share the caller was just shown', () => {
  const RULE = '00000000-0000-4000-9000-000000000001';
  let store: SqliteDocumentStore;
  let reads: ShareReads;

  beforeEach(async () => {
    store = new SqliteDocumentStore({ file: ':memory:' });
    reads = new ShareReads(store, new ShareDocuments());
    await store.write([
      { kind: 'put', collection: SHARES, document: recordOf(1, 'stored') },
      { kind: 'put', collection: ACCESS_RULES, document: ruleOn(RULE, shareId(1)) },
    ]);
  });
  afterEach(() => store.close());

  it('given a rule of that share, then it is answered without reading the share again', async () => {
    const share = await reads.find(shareId(1), OWNER);
    await store.write([{ kind: 'delete', collection: SHARES, id: shareId(1) }]);

    const rule = await reads.accessRuleOf(share, RULE);

    expect(rule).toMatchObject({ id: RULE, share_id: shareId(1), access_to: '10.0.0.1' });
  });

  it("given a rule of another share, then the answer is the unknown rule's 404", async () => {
    await store.write([
      { kind: 'put', collection: SHARES, document: recordOf(2, 'other') },
      { kind: 'put', collection: ACCESS_RULES, document: ruleOn(RULE, shareId(2)) },
    ]);
    const share = await reads.find(shareId(1), OWNER);

    await expect(reads.accessRuleOf(share, RULE)).rejects.toMatchObject({
      status: 404,
      message: `Access rule ${RULE} could not be found.`,
    });
  });

  it("given no such rule, then the answer is the unknown rule's 404", async () => {
    const share = await reads.find(shareId(1), OWNER);

    await expect(reads.accessRuleOf(share, shareId(9))).rejects.toMatchObject({ status: 404 });
  });
});
