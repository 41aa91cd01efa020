import { evolveShare, initialShareState, isActiveShare, type ShareEvent } from '#hawser/domain';
import { toShareRecord, type ShareRecord } from '#hawser/projections';
import { shareRequested } from '../../../domain/src/share/test-support/share-history.js';
import { estimatedBytes } from '../estimated-bytes.js';
import { ShareDocuments } from './share-documents.js';

const shareId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const AT = '2026-11-26T10:00:00.000Z';

const requested = (i: number): ShareEvent =>
  shareRequested({}, { shareId: shareId(i), name: `share-${i}`, metadata: { tier: 'gold' } });

const renamed = (name: string): ShareEvent => ({
  type: 'ShareUpdated',
  data: { name, updatedAt: AT },
});

/** The share's record after `events`, as a read of the store returns it: a fresh copy. */
const storedRecord = (events: readonly ShareEvent[]): ShareRecord => {
  const state = events.reduce(evolveShare, initialShareState());
  if (!isActiveShare(state)) throw new Error('the events make an active share');
  return structuredClone(toShareRecord(state, events.length));
};

describe("the shares' API documents kept by id and revision", () => {
  it('given a share read before, when it is read again at the same revision, then the same document is returned', () => {
    const documents = new ShareDocuments();
    const first = documents.of(storedRecord([requested(1)]));

    const again = documents.of(storedRecord([requested(1)]));

    expect(again).toBe(first);
    expect(again.name).toBe('share-1');
  });

  it('given a share read before, when it is read at a later revision, then its document is derived again', () => {
    const documents = new ShareDocuments();
    documents.of(storedRecord([requested(1)]));

    const later = documents.of(storedRecord([requested(1), renamed('renamed')]));

    expect(later.name).toBe('renamed');
    expect(later.revision).toBe(2);
    expect(documents.of(storedRecord([requested(1), renamed('renamed')]))).toBe(later);
  });

  it('given a kept document, when a reader tries to change it, then it cannot', () => {
    const documents = new ShareDocuments();
    const document = documents.of(storedRecord([requested(1)]));

    expect(() => {
      (document as { name: string | null }).name = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      document.metadata.tier = 'silver';
    }).toThrow(TypeError);
    expect(documents.of(storedRecord([requested(1)])).metadata).toEqual({ tier: 'gold' });
  });

  it('given a budget of 3 documents, when 5 shares are read, then 3 are kept and the least recently read are dropped', () => {
    const oneDocument = estimatedBytes(new ShareDocuments().of(storedRecord([requested(1)])));
    const documents = new ShareDocuments(3 * oneDocument + oneDocument / 2);
    const first = documents.of(storedRecord([requested(1)]));
    const second = documents.of(storedRecord([requested(2)]));
    documents.of(storedRecord([requested(3)]));
    // Reading the first again makes the second the least recently read.
    documents.of(storedRecord([requested(1)]));
    documents.of(storedRecord([requested(4)]));
    documents.of(storedRecord([requested(5)]));

    expect(documents.size).toBe(3);
    expect(documents.bytes).toBeLessThanOrEqual(3 * oneDocument + oneDocument / 2);
    expect(documents.of(storedRecord([requested(1)]))).toBe(first);
    const secondAgain = documents.of(storedRecord([requested(2)]));
    expect(secondAgain).not.toBe(second);
    expect(secondAgain).toEqual(second);
    expect(documents.size).toBe(3);
  });

  it('given shares with large metadata, when they are read, then fewer are kept and their bytes stay within the budget', () => {
    const large = (i: number): ShareEvent =>
      shareRequested(
        {},
        { shareId: shareId(i), name: `share-${i}`, metadata: { notes: 'x'.repeat(20_000) } },
      );
    const small = estimatedBytes(new ShareDocuments().of(storedRecord([requested(1)])));
    const budget = 50 * small;
    const documents = new ShareDocuments(budget);

    for (let i = 1; i <= 10; i += 1) documents.of(storedRecord([large(i)]));

    expect(estimatedBytes(documents.of(storedRecord([large(10)])))).toBeGreaterThan(20_000);
    expect(documents.bytes).toBeLessThanOrEqual(budget);
    expect(documents.size).toBeLessThan(10);
    expect(documents.of(storedRecord([large(10)])).metadata.notes).toHaveLength(20_000);
  });

  it('given a document larger than the whole budget, when it is read, then it alone is kept and read again as itself', () => {
    const documents = new ShareDocuments(100);
    documents.of(storedRecord([requested(1)]));

    const larger = documents.of(storedRecord([requested(2)]));

    expect(documents.size).toBe(1);
    expect(documents.of(storedRecord([requested(2)]))).toBe(larger);
  });

  it('given a share read at revision 1, when its kept document is asked for by id and revision, then only revision 1 finds it', () => {
    const documents = new ShareDocuments();
    const first = documents.of(storedRecord([requested(1)]));

    expect(documents.keptAt(shareId(1), 1)).toBe(first);
    expect(documents.keptAt(shareId(1), 2)).toBeUndefined();
    expect(documents.keptAt(shareId(2), 1)).toBeUndefined();
  });

  it('given room for 2, when a kept document is asked for by revision, then it counts as read and is not the one dropped next', () => {
    const one = estimatedBytes(new ShareDocuments().of(storedRecord([requested(1)])));
    const documents = new ShareDocuments(2.5 * one);
    const first = documents.of(storedRecord([requested(1)]));
    documents.of(storedRecord([requested(2)]));

    documents.keptAt(shareId(1), 1);
    documents.of(storedRecord([requested(3)]));

    expect(documents.keptAt(shareId(1), 1)).toBe(first);
    expect(documents.keptAt(shareId(2), 1)).toBeUndefined();
    expect(documents.size).toBe(2);
  });
});
