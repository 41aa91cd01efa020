import { CommittedDocuments } from './committed-documents.js';

describe('CommittedDocuments', () => {
  it('given a put and a delete committed, when read, then the document and the deletion are known and anything else is not', () => {
    const committed = new CommittedDocuments(10);
    const document = { id: 's-1', status: 'available' };
    committed.add([
      { kind: 'put', collection: 'shares', document },
      { kind: 'delete', collection: 'shares', id: 's-2' },
    ]);

    expect(committed.get('shares', 's-1')).toBe(document);
    expect(committed.get('shares', 's-2')).toBeNull();
    expect(committed.get('shares', 's-3')).toBeUndefined();
    expect(committed.get('share_instances', 's-1')).toBeUndefined();
  });

  it('given more documents than its capacity, when more are committed, then the oldest written are dropped and the size stays bounded', () => {
    const committed = new CommittedDocuments(2);
    committed.add([{ kind: 'put', collection: 'c', document: { id: 'a' } }]);
    committed.add([{ kind: 'put', collection: 'c', document: { id: 'b' } }]);
    // Written again: now the newest.
    committed.add([{ kind: 'put', collection: 'c', document: { id: 'a', v: 2 } }]);
    committed.add([{ kind: 'put', collection: 'c', document: { id: 'd' } }]);

    expect(committed.size).toBe(2);
    expect(committed.get('c', 'b')).toBeUndefined();
    expect(committed.get('c', 'a')).toEqual({ id: 'a', v: 2 });
    expect(committed.get('c', 'd')).toEqual({ id: 'd' });
  });

  it('given documents remembered, when cleared, then none is known', () => {
    const committed = new CommittedDocuments(10);
    committed.add([{ kind: 'put', collection: 'c', document: { id: 'a' } }]);

    committed.clear();

    expect(committed.get('c', 'a')).toBeUndefined();
    expect(committed.size).toBe(0);
  });
});
