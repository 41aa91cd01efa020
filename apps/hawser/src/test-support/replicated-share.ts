import { eventually } from './hawser-test-server.js';
import type { ApiResponse } from './manila-http.js';

/** One Manila API call of a spec, whichever server it talks to. */
export type ManilaCall = (method: string, route: string, body?: unknown) => Promise<ApiResponse>;

/** The share type `readable`: readable replication and snapshots, with `extraSpecs` on top. */
export const createReadableType = async (
  call: ManilaCall,
  extraSpecs: Record<string, string> = {},
): Promise<void> => {
  const type = await call('POST', '/v2/types', {
    share_type: {
      name: 'readable',
      extra_specs: {
        driver_handles_share_servers: 'false',
        replication_type: 'readable',
        snapshot_support: 'true',
        ...extraSpecs,
      },
    },
  });
  expect(type.status).toBe(200);
};

/** Asks for a 1 GiB share of type `readable` in az-1; its id, without waiting for it. */
export const requestReadableShare = async (call: ManilaCall): Promise<string> => {
  const share = await call('POST', '/v2/shares', {
    share: { share_proto: 'NFS', size: 1, share_type: 'readable', availability_zone: 'az-1' },
  });
  expect(share.status).toBe(200);
  return share.body.share.id as string;
};

/** A share of type `readable` in az-1, once it is available. */
export const availableReadableShare = async (
  call: ManilaCall,
  timeoutMs = 30_000,
): Promise<string> => {
  const shareId = await requestReadableShare(call);
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

/** A share type `readable` (readable replication, snapshots) and an available share of it in az-1. */
export const createReadableShare = async (
  call: ManilaCall,
  timeoutMs = 30_000,
): Promise<string> => {
  await createReadableType(call);
  return availableReadableShare(call, timeoutMs);
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
