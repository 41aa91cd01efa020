import { DriverError } from '../../contract/driver-error.js';
import { BackendLock } from '../backend-lock.js';

const WAIT_MS = 30_000;
const FIRST_RETRY_MS = 5;
const LAST_RETRY_MS = 100;

/**
 * Runs `work` holding a back end's exports lock across processes. A back end's exports are
 * rewritten by its own share node and, for replicas, by its peers' (in other processes): this
 * keeps two of them from giving one Export_Id out twice or writing over each other's files. A
 * holder that died is taken over, as with the back end's own lock.
 */
export async function withExportsLock<T>(
  dir: string,
  backend: string,
  work: () => Promise<T>,
): Promise<T> {
  const lock = await acquireWaiting(dir, backend);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}

async function acquireWaiting(dir: string, backend: string): Promise<BackendLock> {
  const deadline = Date.now() + WAIT_MS;
  let delay = FIRST_RETRY_MS;
  for (;;) {
    try {
      return await BackendLock.acquire(dir, backend);
    } catch (error) {
      if (!(error instanceof DriverError) || Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, LAST_RETRY_MS);
  }
}
