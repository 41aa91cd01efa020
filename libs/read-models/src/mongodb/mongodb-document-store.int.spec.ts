import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { documentStoreContract } from '../document-store.contract.js';
import { MongoDbDocumentStore } from './mongodb-document-store.js';

const mongoUrl = process.env['MONGO_URL'];

// MongoDB cannot run on every build machine: without a URL the suite reports itself skipped.
const describeWithMongo = mongoUrl
  ? describe
  : (name: string, body: () => void) => describe.skip(`${name} (skipped: MONGO_URL not set)`, body);

describeWithMongo('MongoDB document store', () => {
  documentStoreContract(async () => {
    const database = `hawser_test_${randomUUID().replaceAll('-', '')}`;
    const store = new MongoDbDocumentStore({ url: mongoUrl as string, database });
    return {
      store,
      dispose: async () => {
        await store.close();
        const client = new MongoClient(mongoUrl as string);
        try {
          await client.db(database).dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  });
});
