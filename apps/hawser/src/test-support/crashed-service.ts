import path from 'node:path';
import { freePort } from './hawser-process.js';
import { manilaRequest } from './manila-http.js';
import type { ManilaCall } from './replicated-share.js';

export interface AuditEvent {
  id: string;
  type: string;
  data: { instanceId?: string; operation?: string; replicaId?: string };
}

/**
 * What a crash spec needs to run the all-in-one service as a process it can kill and restart
 * on the same data: its environment (data and `backends.json` in `dir`, replicas refreshed
 * every second), a Manila call as `token`, and a share's recorded events.
 */
export const crashedService = async (dir: string, token: string) => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const call: ManilaCall = (method, route, body) =>
    manilaRequest(base, method, route, body, { token });
  const env = {
    PORT: String(port),
    HAWSER_DATA_DIR: path.join(dir, 'data'),
    HAWSER_BACKENDS: path.join(dir, 'backends.json'),
    HAWSER_AUTH: 'noauth',
    // A replica's snapshot instance is finished by its node's refresh (reference 5.7).
    HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: '1',
  };
  const history = async (shareId: string) =>
    (await call('GET', `/hawser/v1/streams/share-${shareId}?limit=1000`)).body
      .events as AuditEvent[];
  return { env, call, history };
};
