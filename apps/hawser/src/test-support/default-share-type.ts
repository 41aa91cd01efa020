import { eventually, type HawserTestServer } from './hawser-test-server.js';
import type { ManilaCall } from './replicated-share.js';

/** The share type `default` (no share servers, plus `extraSpecs`), as an admin creates it; its id. */
export const createDefaultType = async (
  hawser: HawserTestServer,
  extraSpecs: Record<string, string> = {},
): Promise<string> => {
  const created = await hawser.request('POST', '/v2/types', {
    share_type: {
      name: 'default',
      extra_specs: { driver_handles_share_servers: 'false', ...extraSpecs },
    },
  });
  expect(created.status).toBe(200);
  return created.body.share_type.id as string;
};

/** A 1 GiB NFS share of type `default` made by `call`, once it is available; its id. */
export const availableDefaultShare = async (
  call: ManilaCall,
  more: Record<string, unknown> = {},
): Promise<string> => {
  const created = await call('POST', '/v2/shares', {
    share: { share_proto: 'NFS', size: 1, share_type: 'default', ...more },
  });
  expect(created.status).toBe(200);
  const id = created.body.share.id as string;
  await eventually(
    async () =>
      (await call('GET', `/v2/shares/${id}`)).body.share?.status === 'available' ? true : undefined,
    10_000,
    'the share to be available',
  );
  return id;
};

/** A snapshot of `shareId` made by `call`, once it is available; its id. */
export const availableSnapshot = async (call: ManilaCall, shareId: string): Promise<string> => {
  const created = await call('POST', '/v2/snapshots', { snapshot: { share_id: shareId } });
  expect(created.status).toBe(202);
  const id = created.body.snapshot.id as string;
  await eventually(
    async () =>
      (await call('GET', `/v2/snapshots/${id}`)).body.snapshot?.status === 'available'
        ? true
        : undefined,
    15_000,
    'the snapshot to be available',
  );
  return id;
};
