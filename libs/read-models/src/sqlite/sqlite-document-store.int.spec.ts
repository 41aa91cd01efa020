import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { documentStoreContract } from '../document-store.contract.js';
import { SqliteDocumentStore } from './sqlite-document-store.js';
import { findSql } from './sqlite-filter.js';

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
    const query = findSql('shares', { project_id: 'p1' }, listing);
    const db = new Database(file, { readonly: true });
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
        .all(...query.params)
        .map((row) => (row as { detail: string }).detail)
        .join('\n');

      expect(plan).toMatch(/USING INDEX documents_by_project_id__created_at/);
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
