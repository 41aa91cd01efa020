import { eventually } from './hawser-test-server.js';
import type { ApiResponse } from './manila-http.js';

type Call = (method: string, route: string, body?: unknown) => Promise<ApiResponse>;

/** Creates a 1 GiB NFS share of the `default` type and waits until the scheduler gave it a host. */
export const createPlacedShare = async (
  call: Call,
  timeoutMs: number,
): Promise<{ id: string; host: string }> => {
  const created = await call('POST', '/v2/shares', {
    share: { share_proto: 'NFS', size: 1, share_type: 'default' },
  });
  expect(created.status).toBe(200);
  return eventually(
    async () => {
      const s = (await call('GET', `/v2/shares/${created.body.share.id}`)).body.share;
      return s?.host ? s : undefined;
    },
    timeoutMs,
    'the share to get a host',
  );
};
