import { eventually } from './hawser-test-server.js';
import type { ApiResponse } from './manila-http.js';

/** One Manila API call of a spec, whichever server it talks to. */
export type ManilaCall = (method: string, route: string, body?: unknown) => Promise<ApiResponse>;

/** A share type `readable` (readable replication, snapshots) and an available share of it in az-1. */
export const createReadableShare = async (
  call: ManilaCall,
  timeoutMs = 30_000,
): Promise<string> => {
  const type = await call('POST', '/v2/types', {
    share_type: {
      name: 'readable',
      extra_specs: {
        driver_handles_share_servers: 'false',
        replication_type: 'readable',
        snapshot_support: 'true',
      },
    },
  });
  expect(type.status).toBe(200);
  const share = await call('POST', '/v2/shares', {
    share: { share_proto: 'NFS', size: 1, share_type: 'readable', availability_zone: 'az-1' },
  });
  expect(share.status).toBe(200);
  const shareId = share.body.share.id as string;
  await eventually(
    async () => {
      const shown = (await call('GET', `/v2/shares/${shareId}`)).body.share;
      return shown?.status === 'available' ? shown : undefined;
    },
    timeoutMs,
    'the share to be available',
  );
  return shareId;
};

/** A replica of the share in az-2, once it is in_sync. */
export const addInSyncReplica = async (
  call: ManilaCall,
  shareId: string,
  timeoutMs = 30_000,
): Promise<string> => {
  const added = await call('POST', '/v2/share-replicas', {
    share_replica: { share_id: shareId, availability_zone: 'az-2' },
  });
  expect(added.status).toBe(202);
  const replicaId = added.body.share_replica.id as string;
  await eventually(
    async () => {
      const shown = (await call('GET', `/v2/share-replicas/${replicaId}`)).body.share_replica;
      return shown?.replica_state === 'in_sync' ? shown : undefined;
    },
    timeoutMs,
    'the replica to be in_sync',
  );
  return replicaId;
};

/** Deletes `route` and waits until it reads 404. */
export const deleteAndWait = async (
  call: ManilaCall,
  route: string,
  what: string,
  timeoutMs = 15_000,
): Promise<void> => {
  expect((await call('DELETE', route)).status).toBe(202);
  await eventually(
    async () => ((await call('GET', route)).status === 404 ? true : undefined),
    timeoutMs,
    `${what} to be gone`,
  );
};
