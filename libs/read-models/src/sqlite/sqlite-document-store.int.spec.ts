import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { documentStoreContract } from '../document-store.contract.js';
import { SqliteDocumentStore } from './sqlite-document-store.js';
import { findSql } from './sqlite-filter.js';
import { WriteLockHolder } from '../../../eventstore/src/test-support/write-lock-holder.js';

describe('SQLite document store', () => {
  documentStoreContract(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
    const store = new SqliteDocumentStore({ file: path.join(dir, 'read-models.sqlite') });
    return {
      store,
      dispose: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describe('SQLite document store listing 10,000 shares of a project', () => {
  let dir: string;
  let file: string;
  let store: SqliteDocumentStore;
  const listing = { sort: [['created_at', -1]] as const, skip: 9_950, limit: 50 };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
    file = path.join(dir, 'read-models.sqlite');
    store = new SqliteDocumentStore({ file });
    // Three projects, 10,000 shares each, created one second apart.
    await store.write(
      Array.from({ length: 30_000 }, (_, i) => ({
        kind: 'put' as const,
        collection: 'shares',
        document: {
          id: `share-${String(i).padStart(5, '0')}`,
          project_id: `p${i % 3}`,
          created_at: new Date(Date.UTC(2025, 0, 1) + i * 1_000).toISOString(),
        },
      })),
    );
    await store.ensureIndex('shares', ['project_id', 'created_at']);
  });
  afterAll(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given an index on project and creation time, the query walks the index instead of sorting', () => {
    const query = findSql('"collection:shares"', { project_id: 'p1' }, listing);
    const db = new Database(file, { readonly: true });
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
        .all(...query.params)
        .map((row) => (row as { detail: string }).detail)
        .join('\n');

      expect(plan).toMatch(/USING INDEX collection:shares:by:project_id,created_at,id/);
      expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    } finally {
      db.close();
    }
  });

  it('returns the last page of the listing in order', async () => {
    const page = await store.find<{ id: string; created_at: string }>(
      'shares',
      { project_id: 'p1' },
      listing,
    );

    expect(page).toHaveLength(50);
    expect(page[0]?.id).toBe('share-00148');
    expect(page[49]?.id).toBe('share-00001');
    expect(await store.count('shares', { project_id: 'p1' })).toBe(10_000);
  });
});

describe('SQLite document store tables', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
    file = path.join(dir, 'read-models.sqlite');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const schema = (): { tables: string[]; indexes: string[] } => {
    const db = new Database(file, { readonly: true });
    try {
      const names = (type: string) =>
        db
          .prepare(
            `SELECT name FROM sqlite_schema WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name`,
          )
          .pluck()
          .all(type) as string[];
      return { tables: names('table'), indexes: names('index') };
    } finally {
      db.close();
    }
  };

  it('keeps each collection in its own table, with only its own indexes', async () => {
    const store = new SqliteDocumentStore({ file });
    await store.ensureIndex('shares', ['project_id']);
    await store.write([
      { kind: 'put', collection: 'shares', document: { id: 's1', project_id: 'p1' } },
      { kind: 'put', collection: 'snapshots', document: { id: 'n1', share_id: 's1' } },
    ]);
    await store.close();

    const { tables, indexes } = schema();
    expect(tables).toEqual(expect.arrayContaining(['collection:shares', 'collection:snapshots']));
    expect(tables).not.toContain('documents');
    expect(indexes).toEqual(['collection:shares:by:project_id,id']);
  });

  it('given documents written now and as JSON text before, when read, filtered and sorted, then both read as written', async () => {
    const store = new SqliteDocumentStore({ file });
    await store.ensureIndex('shares', ['project_id', 'size']);
    const written = [
      { id: 'n1', project_id: 'p1', size: 3, name: null, tags: ['a'] },
      // The id not first, and a document of nothing but its id.
      { project_id: 'p1', id: 'n2', size: 1 },
      { id: 'n3' },
    ];
    await store.write(written.map((document) => ({ kind: 'put', collection: 'shares', document })));
    const before = { id: 'old', project_id: 'p1', size: 2, name: 'kept as text' };
    const db = new Database(file);
    db.prepare('INSERT INTO "collection:shares" (id, doc) VALUES (?, ?)').run(
      before.id,
      JSON.stringify(before),
    );
    const stored = db
      .prepare('SELECT id, typeof(doc) AS type, json(doc) AS text FROM "collection:shares"')
      .all() as { id: string; type: string; text: string }[];
    db.close();

    const sorted = await store.find('shares', { project_id: 'p1' }, { sort: [['size', 1]] });
    const many = await store.getMany('shares', ['n3', 'old', 'n2', 'n1']);

    expect(stored.find((row) => row.id === 'n1')).toEqual({
      id: 'n1',
      type: 'blob',
      text: '{"project_id":"p1","size":3,"name":null,"tags":["a"]}',
    });
    expect(stored.find((row) => row.id === 'n3')).toEqual({ id: 'n3', type: 'blob', text: '{}' });
    expect(sorted).toEqual([written[1], before, written[0]]);
    expect(sorted.map((document) => Object.keys(document)[0])).toEqual(['id', 'id', 'id']);
    expect(many).toEqual([written[2], before, written[1], written[0]]);
    expect(await store.get('shares', 'old')).toEqual(before);
    expect(await store.get('shares', 'n3')).toEqual({ id: 'n3' });
    await store.close();
  });

  it('given an index declared before, when it is dropped, then neither the table nor a rebuilt generation keeps it', async () => {
    const store = new SqliteDocumentStore({ file });
    await store.ensureIndex('shares', ['status']);
    await store.ensureIndex('shares', ['project_id']);
    await store.write([{ kind: 'put', collection: 'shares', document: { id: 's1', status: 'a' } }]);

    await store.dropIndex('shares', ['status']);
    await store.dropIndex('shares', ['status']);
    const dropped = schema();
    const generation = await store.prepareGeneration(['shares']);
    await store.swap(['shares'], generation);
    const rebuilt = schema();
    const found = await store.find('shares', { status: 'a' });
    await store.close();

    expect(dropped.indexes).toEqual(['collection:shares:by:project_id,id']);
    expect(rebuilt.indexes).toEqual([`collection:shares@${generation}:by:project_id,id`]);
    expect(found).toEqual([]);
  });

  it('given an index sparse on another field beside a sparse one on the same fields, when the sparse one is dropped and the collection rebuilt, then the other is kept and a find of the documents with the field walks it', async () => {
    const store = new SqliteDocumentStore({ file });
    await store.ensureIndex('shares', ['created_at'], { sparse: true, sparseOn: 'replica_state' });
    await store.ensureIndex('shares', ['created_at'], { sparse: true });
    const both = schema();
    await store.dropIndex('shares', ['created_at'], { sparse: true });
    const generation = await store.prepareGeneration(['shares']);
    await store.swap(['shares'], generation);
    const newestFirst = {
      sort: [
        ['created_at', -1],
        ['id', -1],
      ],
    } as const;
    const plan = store.queryPlan('shares', { replica_state: { $ne: null } }, newestFirst);
    await store.close();

    expect(both.indexes).toEqual([
      'collection:shares:by:created_at,id:sparse',
      'collection:shares:by:created_at,id:sparse-on:replica_state',
    ]);
    expect(schema().indexes).toEqual([
      `collection:shares@${generation}:by:created_at,id:sparse-on:replica_state`,
    ]);
    expect(plan).toEqual([
      `SCAN collection:shares@${generation} USING INDEX collection:shares@${generation}:by:created_at,id:sparse-on:replica_state`,
    ]);
  });

  it('a rebuild generation loads without indexes, is indexed once loaded, and the swap drops the old table', async () => {
    const store = new SqliteDocumentStore({ file });
    await store.ensureIndex('shares', ['project_id']);
    await store.write([{ kind: 'put', collection: 'shares', document: { id: 'old' } }]);
    const generation = await store.prepareGeneration(['shares']);
    await store.write([
      { kind: 'put', collection: `shares@${generation}`, document: { id: 'new', project_id: 'p' } },
    ]);
    const loaded = schema();

    await store.indexGeneration(['shares'], generation);
    const indexed = schema();
    await store.swap(['shares'], generation);
    const swapped = schema();
    const found = await store.find('shares', { project_id: 'p' });
    await store.close();

    expect(loaded.indexes).toEqual(['collection:shares:by:project_id,id']);
    expect(indexed.indexes).toEqual([
      'collection:shares:by:project_id,id',
      `collection:shares@${generation}:by:project_id,id`,
    ]);
    expect(swapped.tables).toContain(`collection:shares@${generation}`);
    expect(swapped.tables).not.toContain('collection:shares');
    expect(swapped.indexes).toEqual([`collection:shares@${generation}:by:project_id,id`]);
    expect(found).toEqual([{ id: 'new', project_id: 'p' }]);
  });

  it('given a generation prepared, indexed and counted but never swapped, when discarded after a restart, then no table, index or count of it is left', async () => {
    const before = new SqliteDocumentStore({ file });
    await before.ensureIndex('shares', ['project_id']);
    await before.ensureCount('shares', ['status']);
    const generation = await before.prepareGeneration(['shares']);
    await before.write([
      { kind: 'put', collection: `shares@${generation}`, document: { id: 'n', status: 'x' } },
    ]);
    await before.indexGeneration(['shares'], generation);
    await before.close();
    const prepared = schema();

    const after = new SqliteDocumentStore({ file });
    const discarded = await after.discardPreparedGenerations();
    await after.close();

    const ofGeneration = (names: string[]) => names.filter((name) => name.includes(generation));
    expect(ofGeneration(prepared.tables)).toEqual([
      `collection:shares@${generation}`,
      `counts:shares@${generation}:status`,
    ]);
    expect(ofGeneration(prepared.indexes)).toEqual([
      `collection:shares@${generation}:by:project_id,id`,
      `counts:shares@${generation}:status:by:keys`,
    ]);
    expect(discarded).toEqual([generation]);
    expect(ofGeneration(schema().tables)).toEqual([]);
    expect(ofGeneration(schema().indexes)).toEqual([]);
  });

  it('a read after another process swapped the collection away sees the new generation', async () => {
    const reader = new SqliteDocumentStore({ file });
    const writer = new SqliteDocumentStore({ file });
    await writer.write([{ kind: 'put', collection: 'shares', document: { id: 'old' } }]);
    expect(await reader.get('shares', 'old')).toEqual({ id: 'old' });

    const generation = await writer.prepareGeneration(['shares']);
    await writer.write([
      { kind: 'put', collection: `shares@${generation}`, document: { id: 'new' } },
    ]);
    await writer.swap(['shares'], generation);

    expect(await reader.get('shares', 'old')).toBeUndefined();
    expect(await reader.find('shares')).toEqual([{ id: 'new' }]);
    await reader.close();
    await writer.close();
  });

  it('given a reader that remembers each generation it read, when another process swaps twice, then every read sees the live one and a later write goes there too', async () => {
    const reader = new SqliteDocumentStore({ file });
    const writer = new SqliteDocumentStore({ file });
    const swapIn = async (id: string) => {
      const generation = await writer.prepareGeneration(['shares']);
      await writer.write([
        { kind: 'put', collection: `shares@${generation}`, document: { id, project_id: 'p' } },
      ]);
      await writer.swap(['shares'], generation);
    };
    await swapIn('first');
    expect(await reader.find('shares')).toEqual([{ id: 'first', project_id: 'p' }]);

    await swapIn('second');

    expect(await reader.get('shares', 'second')).toEqual({ id: 'second', project_id: 'p' });
    await swapIn('third');
    expect(await reader.getMany('shares', ['second', 'third'])).toEqual([
      { id: 'third', project_id: 'p' },
    ]);
    await swapIn('fourth');
    expect(await reader.count('shares', { project_id: 'p' })).toBe(1);
    await swapIn('fifth');
    expect(await reader.find('shares')).toEqual([{ id: 'fifth', project_id: 'p' }]);
    await swapIn('sixth');
    await reader.write([{ kind: 'put', collection: 'shares', document: { id: 'written' } }]);
    expect((await writer.find('shares')).map((doc) => doc.id).sort()).toEqual(['sixth', 'written']);
    expect(schema().tables.filter((table) => table.startsWith('collection:shares'))).toHaveLength(
      1,
    );
    await reader.close();
    await writer.close();
  });

  it("given counts kept by project, when another process writes and rebuilds the collection, then a count here is read from the live generation's kept counts and sees every write", async () => {
    const reader = new SqliteDocumentStore({ file });
    const writer = new SqliteDocumentStore({ file });
    const put = (store: SqliteDocumentStore, collection: string, id: string, project: string) =>
      store.write([{ kind: 'put', collection, document: { id, project_id: project } }]);
    await put(writer, 'shares', 'before', 'p');
    await writer.ensureCount('shares', ['project_id']);
    await put(writer, 'shares', 'after', 'p');
    await put(writer, 'shares', 'other', 'q');
    const counted = await reader.count('shares', { project_id: 'p' });
    const plan = reader.queryPlan('shares', { project_id: 'p' }, { count: true }).join('\n');

    const generation = await writer.prepareGeneration(['shares']);
    await put(writer, `shares@${generation}`, 'rebuilt', 'p');
    await writer.swap(['shares'], generation);
    await put(writer, 'shares', 'later', 'p');

    expect(counted).toBe(2);
    expect(plan).toMatch(/USING INDEX counts:shares:project_id:by:keys/);
    expect(await reader.count('shares', { project_id: 'p' })).toBe(2);
    expect(await reader.count('shares')).toBe(2);
    expect(reader.queryPlan('shares', {}, { count: true }).join('\n')).toMatch(
      `counts:shares@${generation}:project_id`,
    );
    expect(schema().tables.filter((table) => table.startsWith('counts:'))).toEqual([
      `counts:shares@${generation}:project_id`,
    ]);
    await reader.close();
    await writer.close();
  });

  it('given a process that wrote the collection before another began to count it, when it writes again, then its writes move the counts', async () => {
    const early = new SqliteDocumentStore({ file });
    const counter = new SqliteDocumentStore({ file });
    const put = (id: string, project: string) =>
      early.write([{ kind: 'put', collection: 'shares', document: { id, project_id: project } }]);
    await put('a', 'p');
    await put('b', 'p');

    await counter.ensureCount('shares', ['project_id']);
    await put('c', 'p');
    await put('b', 'q');
    await early.write([{ kind: 'delete', collection: 'shares', id: 'a' }]);

    expect(await counter.count('shares', { project_id: 'p' })).toBe(1);
    expect(await counter.count('shares', { project_id: 'q' })).toBe(1);
    expect(await counter.count('shares')).toBe(2);
    expect(counter.queryPlan('shares', { project_id: 'p' }, { count: true }).join('\n')).toMatch(
      /counts:shares:project_id/,
    );
    await early.close();
    await counter.close();
  });

  it('given a file whose counts an earlier build kept with triggers, when opened, then the triggers are gone and the writes alone keep the counts right', async () => {
    const earlier = new SqliteDocumentStore({ file });
    await earlier.ensureCount('shares', ['project_id']);
    await earlier.write([
      { kind: 'put', collection: 'shares', document: { id: 'a', project_id: 'p' } },
    ]);
    await earlier.close();
    // What the earlier build's insert trigger did: count each new document once more.
    const db = new Database(file);
    db.exec(`
      CREATE TRIGGER "counts:shares:project_id:insert" AFTER INSERT ON "collection:shares"
      BEGIN UPDATE "counts:shares:project_id" SET n = n + 1
        WHERE k0 IS json_extract(NEW.doc, '$.project_id'); END;
    `);
    db.close();

    const reopened = new SqliteDocumentStore({ file });
    await reopened.write([
      { kind: 'put', collection: 'shares', document: { id: 'b', project_id: 'p' } },
    ]);

    const triggers = new Database(file, { readonly: true });
    const left = triggers.prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger'`).all();
    triggers.close();
    expect(left).toEqual([]);
    expect(await reopened.count('shares', { project_id: 'p' })).toBe(2);
    await reopened.close();
  });

  it('a file of the shared-table layout is moved to one table per collection on open', async () => {
    const old = new Database(file);
    old.exec(`
      CREATE TABLE documents (collection TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL,
        PRIMARY KEY (collection, id));
      CREATE TABLE collection_aliases (logical TEXT PRIMARY KEY, physical TEXT NOT NULL);
      CREATE TABLE prepared_generations (collection TEXT NOT NULL, generation TEXT NOT NULL,
        PRIMARY KEY (collection, generation));
      CREATE TABLE checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
      CREATE INDEX documents_by_project_id ON documents
        (collection, json_extract(doc, '$.project_id'));
      INSERT INTO collection_aliases VALUES ('shares', 'shares@g1');
      INSERT INTO checkpoints VALUES ('shares', 42);
    `);
    const insert = old.prepare('INSERT INTO documents VALUES (?, ?, ?)');
    insert.run('shares@g1', 's1', JSON.stringify({ id: 's1', project_id: 'p1' }));
    insert.run('shares@g1', 's2', JSON.stringify({ id: 's2', project_id: 'p2' }));
    insert.run('share_types', 't1', JSON.stringify({ id: 't1', name: 'gold' }));
    old.close();

    const store = new SqliteDocumentStore({ file });
    await store.ensureIndex('shares', ['project_id']);

    expect(await store.find('shares', { project_id: 'p2' })).toEqual([
      { id: 's2', project_id: 'p2' },
    ]);
    expect(await store.get('share_types', 't1')).toEqual({ id: 't1', name: 'gold' });
    expect(await store.readCheckpoint('shares')).toBe(42);
    await store.commit([{ kind: 'put', collection: 'shares', document: { id: 's3' } }], {
      name: 'shares',
      position: 43,
      expectedPosition: 42,
    });
    expect(await store.count('shares')).toBe(3);
    await store.close();
    const { tables, indexes } = schema();
    expect(tables).not.toContain('documents');
    expect(tables).toEqual(
      expect.arrayContaining(['collection:shares@g1', 'collection:share_types']),
    );
    expect(indexes).toEqual(['collection:shares@g1:by:project_id,id']);

    // Opening again finds nothing left to move.
    const reopened = new SqliteDocumentStore({ file });
    expect(await reopened.count('shares')).toBe(3);
    await reopened.close();
  });
});

describe('SQLite document store while another connection holds its write lock', () => {
  const BUSY_TIMEOUT_MS = 1_000;
  let dir: string;
  let store: SqliteDocumentStore;
  let holder: WriteLockHolder;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-'));
    const file = path.join(dir, 'read-models.sqlite');
    store = new SqliteDocumentStore({ file, busyTimeoutMs: BUSY_TIMEOUT_MS });
    holder = new WriteLockHolder(file);
  });
  afterEach(async () => {
    holder.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('given the lock held past the busy time-out, when batches are committed, then they fail as busy after one time-out, not two, and write nothing', async () => {
    holder.hold();
    const started = performance.now();

    const committed = store.commitAll([
      {
        writes: [{ kind: 'put', collection: 'things', document: { id: 'a' } }],
        checkpoint: { name: 'p', position: 5, expectedPosition: undefined },
      },
    ]);

    await expect(committed).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(performance.now() - started).toBeLessThan(BUSY_TIMEOUT_MS * 1.8);
    holder.release();
    expect(await store.readCheckpoint('p')).toBeUndefined();
    expect(await store.find('things')).toEqual([]);
  });
});
