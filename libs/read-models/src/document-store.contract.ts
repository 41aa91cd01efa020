import {
  CheckpointConflictError,
  type Document,
  type DocumentStore,
  type Filter,
} from './document-store.port.js';
import { matchesFilter } from './filter-matcher.js';

/** Opens a fresh, empty store; `dispose` closes it and removes what it created. */
export interface DocumentStoreFixture {
  store: DocumentStore;
  dispose(): Promise<void>;
}

interface Share {
  id: string;
  name: string;
  size: number;
  is_public: boolean;
  project: { id: string };
  created_at: string;
  description?: string | null;
}

const shares: Share[] = [
  {
    id: 's1',
    name: 'alpha',
    size: 10,
    is_public: true,
    project: { id: 'p1' },
    created_at: '2025-01-03',
    description: 'first',
  },
  {
    id: 's2',
    name: 'Beta',
    size: 20,
    is_public: false,
    project: { id: 'p1' },
    created_at: '2025-01-01',
    description: null,
  },
  {
    id: 's3',
    name: 'gamma_1',
    size: 1,
    is_public: false,
    project: { id: 'p2' },
    created_at: '2025-01-02',
  },
  {
    id: 's4',
    name: 'delta',
    size: 20,
    is_public: true,
    project: { id: 'p2' },
    created_at: '2025-01-02',
    description: '20',
  },
];

const ids = (documents: readonly { id: string }[]): string[] => documents.map((doc) => doc.id);

/** Filters with the shares `givenShares` writes that each selects. */
const FILTER_CASES: [string, Filter, string[]][] = [
  ['nothing', {}, ['s1', 's2', 's3', 's4']],
  ['equality on a string', { name: 'delta' }, ['s4']],
  ['equality on a dotted field', { 'project.id': 'p2' }, ['s3', 's4']],
  ['equality on the id', { id: 's2' }, ['s2']],
  ['equality on a boolean', { is_public: false }, ['s2', 's3']],
  ['equality on a number', { size: 20 }, ['s2', 's4']],
  ['a number does not equal its string', { description: 20 }, []],
  ['null matches null and missing', { description: null }, ['s2', 's3']],
  ['two fields both hold', { 'project.id': 'p1', size: 20 }, ['s2']],
  ['$in', { name: { $in: ['alpha', 'delta', 'zeta'] } }, ['s1', 's4']],
  ['$in with null', { description: { $in: [null, 'first'] } }, ['s1', 's2', 's3']],
  ['$in with a boolean', { is_public: { $in: [true] } }, ['s1', 's4']],
  ['$in empty', { name: { $in: [] } }, []],
  ['$in on ids', { id: { $in: ['s4', 'missing', 's2'] } }, ['s2', 's4']],
  ['$in on ids with a number', { id: { $in: ['s3', 1] } }, ['s3']],
  ['$ne includes missing fields', { description: { $ne: 'first' } }, ['s2', 's3', 's4']],
  ['$ne null', { description: { $ne: null } }, ['s1', 's4']],
  ['$ne on a boolean', { is_public: { $ne: true } }, ['s2', 's3']],
  ['$gt on numbers', { size: { $gt: 10 } }, ['s2', 's4']],
  ['$gte on numbers', { size: { $gte: 10 } }, ['s1', 's2', 's4']],
  ['$lt on numbers', { size: { $lt: 10 } }, ['s3']],
  ['$lte on numbers', { size: { $lte: 10 } }, ['s1', 's3']],
  ['$gte on strings', { created_at: { $gte: '2025-01-02' } }, ['s1', 's3', 's4']],
  ['$lt on strings', { created_at: { $lt: '2025-01-02' } }, ['s2']],
  ['a string range skips numbers', { description: { $lt: 'zzz' } }, ['s1', 's4']],
  ['$like with % is case-insensitive', { name: { $like: '%ET%' } }, ['s2']],
  ['$like with _', { name: { $like: 'gamma__' } }, ['s3']],
  ['$like anchors both ends', { name: { $like: 'alph' } }, []],
  ['$exists true includes null', { description: { $exists: true } }, ['s1', 's2', 's4']],
  ['$exists false', { description: { $exists: false } }, ['s3']],
  [
    'a field named like an object member is absent',
    { 'project.constructor': { $exists: true } },
    [],
  ],
  ['nor equal to anything', { 'project.toString': { $ne: null } }, []],
];

/** The behaviour every DocumentStore adapter shares. */
export function documentStoreContract(open: () => Promise<DocumentStoreFixture>): void {
  let fixture: DocumentStoreFixture;
  let store: DocumentStore;

  beforeEach(async () => {
    fixture = await open();
    store = fixture.store;
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  const givenShares = () =>
    store.write(shares.map((document) => ({ kind: 'put', collection: 'shares', document })));
  /** A rebuild: the shares written into a new generation, swapped in. */
  const rebuildWithShares = async () => {
    const generation = await store.prepareGeneration(['shares']);
    await store.write(
      shares.map((document) => ({ kind: 'put', collection: `shares@${generation}`, document })),
    );
    await store.swap(['shares'], generation);
  };

  describe('documents', () => {
    it('given stored documents, get and getMany return them, and missing ids are left out', async () => {
      await givenShares();

      expect(await store.get<Share>('shares', 's3')).toEqual(shares[2]);
      expect(await store.get('shares', 'nope')).toBeUndefined();
      expect(await store.get('other', 's1')).toBeUndefined();
      expect(ids(await store.getMany('shares', ['s4', 'nope', 's1']))).toEqual(['s4', 's1']);
      expect(await store.getMany('shares', [])).toEqual([]);
    });

    it('a put replaces the whole document and a delete removes it', async () => {
      await givenShares();

      await store.write([
        { kind: 'put', collection: 'shares', document: { id: 's1', name: 'renamed' } },
        { kind: 'delete', collection: 'shares', id: 's2' },
        { kind: 'delete', collection: 'shares', id: 'never-there' },
      ]);

      expect(await store.get('shares', 's1')).toEqual({ id: 's1', name: 'renamed' });
      expect(await store.get('shares', 's2')).toBeUndefined();
      expect(await store.count('shares')).toBe(3);
    });

    it('writes apply in order within one call', async () => {
      await store.write([
        { kind: 'put', collection: 'c', document: { id: 'a', v: 1 } },
        { kind: 'delete', collection: 'c', id: 'a' },
        { kind: 'put', collection: 'c', document: { id: 'b', v: 1 } },
        { kind: 'put', collection: 'c', document: { id: 'b', v: 2 } },
      ]);

      expect(await store.find('c')).toEqual([{ id: 'b', v: 2 }]);
    });
  });

  describe('filters', () => {
    it.each(FILTER_CASES)('find and count with %s', async (_name, filter, expected) => {
      await givenShares();

      const found = await store.find('shares', filter);

      expect(ids(found).sort()).toEqual(expected);
      expect(await store.count('shares', filter)).toBe(expected.length);
      // The in-memory matcher used for uncommitted writes must agree with the store.
      expect(ids(shares.filter((share) => matchesFilter(share, filter)))).toEqual(expected);
    });

    it('rejects unsafe field names', async () => {
      await expect(store.find('shares', { "name') OR 1=1 --": 'x' })).rejects.toThrow(
        /unsupported field name/,
      );
    });
  });

  describe('sparse indexes', () => {
    const SPARSE = [['description'], ['name', 'created_at'], ['project.id']];
    const givenSparseIndexes = async () => {
      for (const fields of SPARSE) await store.ensureIndex('shares', fields, { sparse: true });
    };

    it.each(FILTER_CASES)(
      'given sparse indexes on some of the fields, when found with %s, then the documents are those without them',
      async (_name, filter, expected) => {
        await givenShares();
        await givenSparseIndexes();

        expect(ids(await store.find('shares', filter))).toEqual(expected);
        expect(await store.count('shares', filter)).toBe(expected.length);
      },
    );

    it('given a sparse index, when its field is set, changed and taken away, then a find by its value follows', async () => {
      await givenSparseIndexes();
      await givenShares();
      const withDescription = async (description: string) =>
        ids(await store.find('shares', { description: { $in: [description] } }));

      await store.write([
        { kind: 'put', collection: 'shares', document: { id: 's3', description: 'first' } },
        { kind: 'put', collection: 'shares', document: { id: 's1', description: 'later' } },
        { kind: 'put', collection: 'shares', document: { id: 's4' } },
      ]);

      expect(await withDescription('first')).toEqual(['s3']);
      expect(await withDescription('later')).toEqual(['s1']);
      expect(await withDescription('20')).toEqual([]);
      expect(ids(await store.find('shares', { description: null }))).toEqual(['s2', 's4']);
    });

    it('a sparse index and a full one on the same fields are two: dropping one keeps the other, and a rebuilt generation gets what is declared', async () => {
      await store.ensureIndex('shares', ['description']);
      await store.ensureIndex('shares', ['description'], { sparse: true });
      await store.dropIndex('shares', ['description'], { sparse: true });
      await store.dropIndex('shares', ['description'], { sparse: true });

      await rebuildWithShares();

      expect(ids(await store.find('shares', { description: 'first' }))).toEqual(['s1']);
      expect(ids(await store.find('shares', { description: null }))).toEqual(['s2', 's3']);
    });
  });

  describe('sparse indexes on another field', () => {
    const newestFirst = {
      sort: [
        ['created_at', -1],
        ['id', -1],
      ],
    } as const;
    const described = async () =>
      ids(await store.find('shares', { description: { $ne: null } }, newestFirst));

    it('given an index on the creation time holding the shares with a description, then a find of those lists them newest first as descriptions come and go', async () => {
      await givenShares();
      await store.ensureIndex('shares', ['created_at'], { sparse: true, sparseOn: 'description' });

      expect(await described()).toEqual(['s1', 's4']);
      const [s1, , s3] = shares as [Share, Share, Share];
      const { description: _gone, ...withoutDescription } = s1;
      await store.write([
        { kind: 'put', collection: 'shares', document: { ...s3, description: 'third' } },
        { kind: 'put', collection: 'shares', document: withoutDescription },
      ]);

      expect(await described()).toEqual(['s4', 's3']);
      expect(
        ids(
          await store.find('shares', { description: { $ne: null } }, { ...newestFirst, skip: 1 }),
        ),
      ).toEqual(['s3']);
    });

    it('is apart from the sparse index on the same fields: dropping one keeps the other, and a rebuilt generation gets what is declared', async () => {
      await store.ensureIndex('shares', ['created_at'], { sparse: true, sparseOn: 'description' });
      await store.ensureIndex('shares', ['created_at'], { sparse: true });
      await store.dropIndex('shares', ['created_at'], { sparse: true });

      await rebuildWithShares();

      expect(await described()).toEqual(['s1', 's4']);
      expect(ids(await store.find('shares', { created_at: '2025-01-02' }))).toEqual(['s3', 's4']);
    });
  });

  describe('kept counts', () => {
    const COUNTED = ['project.id', 'name', 'description'];
    /** Each filter's count against what a find of it returns. */
    const countsAgainstFinds = async (filters: readonly Filter[]) =>
      Promise.all(
        filters.map(async (filter) => [
          await store.count('shares', filter),
          (await store.find('shares', filter)).length,
        ]),
      );
    const agreeing = (pairs: number[][]) => pairs.map(([, found]) => [found, found]);
    const filters = FILTER_CASES.map(([, filter]) => filter);

    it.each(FILTER_CASES)(
      'given counts kept by some of the fields, when counted with %s, then the count is what a find selects',
      async (_name, filter, expected) => {
        await givenShares();
        await store.ensureCount('shares', COUNTED);

        expect(await store.count('shares', filter)).toBe(expected.length);
      },
    );

    it('given kept counts, when documents are added, changed in a counted field, replaced unchanged and deleted, then every count still agrees with a find', async () => {
      await store.ensureCount('shares', COUNTED);
      await givenShares();

      await store.write([
        { kind: 'put', collection: 'shares', document: { id: 's5', name: 'alpha' } },
        {
          kind: 'put',
          collection: 'shares',
          document: { ...(shares[0] as Share), name: 'renamed' },
        },
        {
          kind: 'put',
          collection: 'shares',
          document: { ...(shares[2] as Share), project: { id: 'p1' } },
        },
        { kind: 'put', collection: 'shares', document: { ...(shares[3] as Share), size: 99 } },
        { kind: 'delete', collection: 'shares', id: 's2' },
        { kind: 'delete', collection: 'shares', id: 'never-there' },
      ]);

      const pairs = await countsAgainstFinds([
        ...filters,
        { name: 'renamed' },
        { name: 'alpha' },
        { 'project.id': 'p1', description: null },
      ]);
      expect(pairs).toEqual(agreeing(pairs));
      expect(await store.count('shares', { 'project.id': 'p1' })).toBe(2);
    });

    it('given kept counts, when a batch is refused by its checkpoint, then the counts are as before it', async () => {
      await store.ensureCount('shares', COUNTED);
      await givenShares();
      await store.commit([], { name: 'c', position: 1, expectedPosition: undefined });

      await expect(
        store.commit(
          [
            { kind: 'put', collection: 'shares', document: { id: 's9', name: 'alpha' } },
            { kind: 'delete', collection: 'shares', id: 's1' },
          ],
          { name: 'c', position: 2, expectedPosition: 0 },
        ),
      ).rejects.toBeInstanceOf(CheckpointConflictError);

      expect(await store.count('shares', { name: 'alpha' })).toBe(1);
      expect(await store.count('shares')).toBe(4);
    });

    it("given kept counts, when the collection is rebuilt into a generation and swapped in, then the counts are the new generation's, also after later writes", async () => {
      await store.ensureCount('shares', COUNTED);
      await givenShares();
      const generation = await store.prepareGeneration(['shares']);
      await store.write(
        shares
          .slice(0, 3)
          .map((document) => ({ kind: 'put', collection: `shares@${generation}`, document })),
      );

      await store.indexGeneration(['shares'], generation);
      await store.swap(['shares'], generation);
      await store.write([
        { kind: 'put', collection: 'shares', document: { id: 's6', project: { id: 'p2' } } },
      ]);

      expect(await store.count('shares')).toBe(4);
      expect(await store.count('shares', { 'project.id': 'p2' })).toBe(2);
      const pairs = await countsAgainstFinds(filters);
      expect(pairs).toEqual(agreeing(pairs));
    });
  });

  describe('sort, skip and limit', () => {
    it('sorts by several keys, breaking ties by id, and pages', async () => {
      await givenShares();

      const bySizeDescThenDate = await store.find(
        'shares',
        {},
        {
          sort: [
            ['size', -1],
            ['created_at', 1],
          ],
        },
      );
      expect(ids(bySizeDescThenDate)).toEqual(['s2', 's4', 's1', 's3']);

      const byDate = await store.find('shares', {}, { sort: [['created_at', 1]] });
      expect(ids(byDate)).toEqual(['s2', 's3', 's4', 's1']);

      const page = await store.find(
        'shares',
        {},
        { sort: [['created_at', -1]], skip: 1, limit: 2 },
      );
      expect(ids(page)).toEqual(['s3', 's4']);
      expect(ids(await store.find('shares', {}, { limit: 1 }))).toEqual(['s1']);
      expect(ids(await store.find('shares', {}, { skip: 3 }))).toEqual(['s4']);
    });

    it('findVersions lists the ids find would return, in its order and pages, each with the version field', async () => {
      await givenShares();
      const query = [{ 'project.id': 'p2' }, { sort: [['created_at', -1]] }] as const;
      const page = { sort: [['size', -1]] as const, skip: 1, limit: 2 };

      expect(await store.findVersions('shares', 'size', ...query)).toEqual([
        { id: 's3', version: 1 },
        { id: 's4', version: 20 },
      ]);
      expect(ids(await store.findVersions('shares', 'name', {}, page))).toEqual(
        ids(await store.find('shares', {}, page)),
      );
      expect(await store.findVersions('shares', 'description', { name: 'gamma_1' })).toEqual([
        { id: 's3', version: undefined },
      ]);
      expect(await store.findVersions('shares', 'project.id', { size: 10 })).toEqual([
        { id: 's1', version: 'p1' },
      ]);
      expect(await store.findVersions('nothing', 'size')).toEqual([]);
    });

    it('without sort keys, lists by id', async () => {
      await store.write(
        ['b', 'c', 'a'].map((id) => ({ kind: 'put', collection: 'x', document: { id } })),
      );

      expect(ids(await store.find('x'))).toEqual(['a', 'b', 'c']);
    });

    it('with an index on the filtered and sorted fields, the results are the same', async () => {
      await givenShares();

      await store.ensureIndex('shares', ['project.id', 'created_at']);
      await store.ensureIndex('shares', ['project.id', 'created_at']);

      const found = await store.find(
        'shares',
        { 'project.id': 'p2' },
        { sort: [['created_at', -1]] },
      );
      expect(ids(found)).toEqual(['s3', 's4']);
    });
  });

  describe('checkpoints', () => {
    it('given no checkpoint, a commit expecting none writes documents and checkpoint together', async () => {
      expect(await store.readCheckpoint('shares')).toBeUndefined();

      await store.commit([{ kind: 'put', collection: 'shares', document: { id: 'a' } }], {
        name: 'shares',
        position: 5,
        expectedPosition: undefined,
      });

      expect(await store.readCheckpoint('shares')).toBe(5);
      expect(await store.get('shares', 'a')).toEqual({ id: 'a' });
    });

    it('a commit expecting the stored position moves it', async () => {
      await store.commit([], { name: 'p', position: 5, expectedPosition: undefined });

      await store.commit([{ kind: 'delete', collection: 'shares', id: 'a' }], {
        name: 'p',
        position: 9,
        expectedPosition: 5,
      });

      expect(await store.readCheckpoint('p')).toBe(9);
    });

    it('a commit expecting another position fails and writes nothing', async () => {
      await store.commit([{ kind: 'put', collection: 'c', document: { id: 'a', v: 1 } }], {
        name: 'p',
        position: 5,
        expectedPosition: undefined,
      });

      const stale = store.commit(
        [
          { kind: 'put', collection: 'c', document: { id: 'a', v: 2 } },
          { kind: 'put', collection: 'c', document: { id: 'b', v: 2 } },
        ],
        { name: 'p', position: 7, expectedPosition: 4 },
      );
      await expect(stale).rejects.toBeInstanceOf(CheckpointConflictError);
      const none = store.commit([{ kind: 'delete', collection: 'c', id: 'a' }], {
        name: 'p',
        position: 7,
        expectedPosition: undefined,
      });
      await expect(none).rejects.toMatchObject({ expected: undefined, actual: 5 });

      expect(await store.readCheckpoint('p')).toBe(5);
      expect(await store.find('c')).toEqual([{ id: 'a', v: 1 }]);
    });

    it('a commit expecting a position of a checkpoint never stored fails and writes nothing', async () => {
      const unknown = store.commit([{ kind: 'put', collection: 'c', document: { id: 'a' } }], {
        name: 'never',
        position: 9,
        expectedPosition: 3,
      });

      await expect(unknown).rejects.toMatchObject({ expected: 3, actual: undefined });
      expect(await store.readCheckpoint('never')).toBeUndefined();
      expect(await store.find('c')).toEqual([]);
    });

    it('checkpoints are independent by name', async () => {
      await store.commit([], { name: 'a', position: 1, expectedPosition: undefined });
      await store.commit([], { name: 'b', position: 2, expectedPosition: undefined });

      expect(await store.readCheckpoint('a')).toBe(1);
      expect(await store.readCheckpoint('b')).toBe(2);
    });

    it('given batches of several projections committed together, each moves its own checkpoint with its writes, and one refused by its compare-and-set fails alone', async () => {
      await store.commit([], { name: 'b', position: 3, expectedPosition: undefined });

      const outcomes = await store.commitAll([
        {
          writes: [{ kind: 'put', collection: 'a_docs', document: { id: 'a1' } }],
          checkpoint: { name: 'a', position: 8, expectedPosition: undefined },
        },
        {
          writes: [{ kind: 'put', collection: 'b_docs', document: { id: 'b1' } }],
          checkpoint: { name: 'b', position: 8, expectedPosition: 2 },
        },
        {
          writes: [
            { kind: 'put', collection: 'c_docs', document: { id: 'c1' } },
            { kind: 'put', collection: 'c_docs', document: { id: 'c2' } },
          ],
          checkpoint: { name: 'c', position: 8, expectedPosition: undefined },
        },
        {
          writes: [
            { kind: 'put', collection: 'd_docs', document: { id: 'd1' } },
            { kind: 'put', collection: 'd_docs', document: { id: 4 } as unknown as Document },
          ],
          checkpoint: { name: 'd', position: 8, expectedPosition: undefined },
        },
      ]);

      expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false, true, false]);
      expect(outcomes[1]).toMatchObject({ error: { checkpointName: 'b', actual: 3 } });
      expect((outcomes[1] as { error: unknown }).error).toBeInstanceOf(CheckpointConflictError);
      expect(await store.readCheckpoint('a')).toBe(8);
      expect(await store.readCheckpoint('b')).toBe(3);
      expect(await store.readCheckpoint('c')).toBe(8);
      expect(await store.find('a_docs')).toEqual([{ id: 'a1' }]);
      expect(await store.find('b_docs')).toEqual([]);
      expect(ids(await store.find('c_docs'))).toEqual(['c1', 'c2']);
      // The refused write takes back the one before it in its batch, and nothing else.
      expect(await store.find('d_docs')).toEqual([]);
      expect(await store.readCheckpoint('d')).toBeUndefined();
      await store.commit([{ kind: 'put', collection: 'd_docs', document: { id: 'd2' } }], {
        name: 'd',
        position: 9,
        expectedPosition: undefined,
      });
      expect(await store.find('d_docs')).toEqual([{ id: 'd2' }]);
    });
  });

  describe('generations', () => {
    it('a prepared generation is empty and addressed as name@generation, apart from the live one', async () => {
      await givenShares();

      const generation = await store.prepareGeneration(['shares', 'instances']);
      await store.write([
        { kind: 'put', collection: `shares@${generation}`, document: { id: 'n1' } },
      ]);

      expect(await store.count(`instances@${generation}`)).toBe(0);
      expect(ids(await store.find(`shares@${generation}`))).toEqual(['n1']);
      expect(await store.count('shares')).toBe(4);
      expect(await store.get('shares', 'n1')).toBeUndefined();
    });

    it('swap points the names at the new generation and drops the old documents', async () => {
      await givenShares();
      await store.write([{ kind: 'put', collection: 'instances', document: { id: 'i-old' } }]);
      const generation = await store.prepareGeneration(['shares', 'instances']);
      await store.write([
        { kind: 'put', collection: `shares@${generation}`, document: { id: 'n1' } },
        { kind: 'put', collection: `instances@${generation}`, document: { id: 'i-new' } },
      ]);

      await store.swap(['shares', 'instances'], generation);

      expect(ids(await store.find('shares'))).toEqual(['n1']);
      expect(ids(await store.find('instances'))).toEqual(['i-new']);
      await store.write([{ kind: 'put', collection: 'shares', document: { id: 'n2' } }]);
      expect(ids(await store.find(`shares@${generation}`))).toEqual(['n1', 'n2']);
    });

    it('a second rebuild swaps again and drops the first generation', async () => {
      const first = await store.prepareGeneration(['shares']);
      await store.write([{ kind: 'put', collection: `shares@${first}`, document: { id: 'g1' } }]);
      await store.swap(['shares'], first);
      const second = await store.prepareGeneration(['shares']);
      await store.write([{ kind: 'put', collection: `shares@${second}`, document: { id: 'g2' } }]);

      await store.swap(['shares'], second);

      expect(ids(await store.find('shares'))).toEqual(['g2']);
      expect(await store.count(`shares@${first}`)).toBe(0);
    });

    it('discarding drops the generations prepared and never swapped, and never a live one', async () => {
      const live = await store.prepareGeneration(['shares']);
      await store.write([{ kind: 'put', collection: `shares@${live}`, document: { id: 'kept' } }]);
      await store.swap(['shares'], live);
      const left = await store.prepareGeneration(['shares', 'instances']);
      await store.write([{ kind: 'put', collection: `shares@${left}`, document: { id: 'lost' } }]);

      expect(await store.discardPreparedGenerations()).toEqual([left]);

      expect(ids(await store.find('shares'))).toEqual(['kept']);
      expect(await store.count(`shares@${left}`)).toBe(0);
      await expect(store.swap(['shares'], left)).rejects.toThrow(/was not prepared/);
      expect(await store.discardPreparedGenerations()).toEqual([]);
    });

    it('discarding one generation leaves another prepared one to be swapped in', async () => {
      const failed = await store.prepareGeneration(['shares']);
      const running = await store.prepareGeneration(['shares']);
      await store.write([{ kind: 'put', collection: `shares@${running}`, document: { id: 'r' } }]);

      expect(await store.discardPreparedGenerations(failed)).toEqual([failed]);
      await store.swap(['shares'], running);

      expect(ids(await store.find('shares'))).toEqual(['r']);
      expect(await store.discardPreparedGenerations(running)).toEqual([]);
      expect(ids(await store.find('shares'))).toEqual(['r']);
    });

    it('a commit to the logical name after a swap lands in the new generation', async () => {
      const generation = await store.prepareGeneration(['shares']);
      await store.swap(['shares'], generation);

      await store.commit([{ kind: 'put', collection: 'shares', document: { id: 'x' } }], {
        name: 'shares',
        position: 1,
        expectedPosition: undefined,
      });

      expect(await store.get(`shares@${generation}`, 'x')).toEqual({ id: 'x' });
    });

    it('a generation indexed once loaded keeps the declared indexes after the swap', async () => {
      await store.ensureIndex('shares', ['project.id', 'created_at']);
      const generation = await store.prepareGeneration(['shares']);
      await store.write(
        shares.map((document) => ({ kind: 'put', collection: `shares@${generation}`, document })),
      );

      await store.indexGeneration(['shares'], generation);
      await store.indexGeneration(['shares'], generation);
      await store.swap(['shares'], generation);

      const found = await store.find(
        'shares',
        { 'project.id': 'p1' },
        { sort: [['created_at', 1]] },
      );
      expect(ids(found)).toEqual(['s2', 's1']);
    });

    it('swapping to a generation that was never prepared fails', async () => {
      await expect(store.swap(['shares'], 'unknown')).rejects.toThrow(/not prepared/);
    });
  });
}
