import fs from 'node:fs';
import path from 'node:path';
import type { DocumentStore } from './document-store.port.js';
import { SqliteDocumentStore } from './sqlite/sqlite-document-store.js';

export interface DocumentStoreConfig {
  /** Directory for the embedded SQLite file; created when missing. */
  readonly dataDir: string;
  /** MongoDB connection string; when set, MongoDB is used instead of SQLite. */
  readonly mongoUrl?: string | undefined;
}

export const READ_MODELS_FILE = 'read-models.sqlite';

/**
 * MongoDB when a URL is given, else `<dataDir>/read-models.sqlite`. The MongoDB driver is loaded
 * only when it is used, to keep it out of an embedded start.
 */
export async function createDocumentStore(config: DocumentStoreConfig): Promise<DocumentStore> {
  if (config.mongoUrl) {
    const { MongoDbDocumentStore } = await import('./mongodb/mongodb-document-store.js');
    return new MongoDbDocumentStore({ url: config.mongoUrl });
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  return new SqliteDocumentStore({ file: path.join(config.dataDir, READ_MODELS_FILE) });
}
