import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentStoreContract } from '../document-store.contract.js';
import { SqliteDocumentStore } from './sqlite-document-store.js';

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
