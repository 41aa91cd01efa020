import { setTimeout as delay } from 'node:timers/promises';
import type { HawserConfig } from '../config/hawser-config.js';
import { StartupRefusal } from './startup-refusal.js';

const RETRY_MS = 500;

const reasonOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? String(error);

/** Asks until `probe` answers or `waitMs` has passed, then refuses with the last reason. */
const waitFor = async (
  name: string,
  url: string,
  waitMs: number,
  probe: (remainingMs: number) => Promise<void>,
) => {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await probe(Math.max(deadline - Date.now(), RETRY_MS));
      return;
    } catch (error) {
      if (Date.now() + RETRY_MS >= deadline) {
        throw new StartupRefusal(
          `${name} ${url} did not answer within ${Math.round(waitMs / 1000)} s (HAWSER_STORE_WAIT_S): ${reasonOf(error)}`,
        );
      }
      await delay(RETRY_MS);
    }
  }
};

// The clients are loaded only when their URL is set: both are large, and an embedded start
// uses neither.
const pingMongo = async (url: string, timeoutMs: number): Promise<void> => {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
  });
  try {
    await client.connect();
    await client.db().command({ ping: 1 });
  } finally {
    await client.close();
  }
};

const readKurrent = async (url: string, timeoutMs: number): Promise<void> => {
  const { KurrentDBClient, START } = await import('@kurrent/kurrentdb-client');
  const client = KurrentDBClient.connectionString(url);
  try {
    for await (const event of client.readAll({
      maxCount: 1,
      fromPosition: START,
      deadline: timeoutMs,
    })) {
      void event;
      break;
    }
  } finally {
    await client.dispose();
  }
};

/**
 * Refuses to start, naming the store, when MONGO_URL or EVENTSTORE_URL does not answer within
 * the configured wait; the stores' own clients would otherwise fail later with a stack trace.
 */
export const refuseUnlessStoresReachable = async (config: HawserConfig): Promise<void> => {
  const waitMs = config.storeWaitS * 1000;
  const { mongoUrl, eventstoreUrl } = config;
  await Promise.all([
    mongoUrl && waitFor('MONGO_URL', mongoUrl, waitMs, (ms) => pingMongo(mongoUrl, ms)),
    eventstoreUrl &&
      waitFor('EVENTSTORE_URL', eventstoreUrl, waitMs, (ms) => readKurrent(eventstoreUrl, ms)),
  ]);
};
