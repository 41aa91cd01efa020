import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fromSnapshotBackends } from './from-snapshot-backends.js';
import { eventually, startHawser, type HawserTestServer } from './hawser-test-server.js';

/** Migration actions are experimental in Manila at every version. */
export const MIGRATION_VERSION = '2.29';

/**
 * Hawser on local back ends with real directories (alpha with two pools in az-1, charlie and
 * isolated in az-2), copies across pools capped at 2 MiB/s and polled every 100 ms.
 */
export const startMigrationHawser = (): Promise<HawserTestServer> =>
  startHawser({
    backends: (dir) => fromSnapshotBackends(dir, 2 * 1024 * 1024),
    env: { HAWSER_SHARE_STATUS_POLL_MS: '100' },
  });

/** Creates share type `name` without share servers; its id. */
export const createShareType = async (
  hawser: Pick<HawserTestServer, 'request'>,
  name: string,
  extraSpecs: Record<string, string> = {},
): Promise<string> => {
  const created = await hawser.request('POST', '/v2/types', {
    share_type: { name, extra_specs: { driver_handles_share_servers: 'false', ...extraSpecs } },
  });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  return created.body.share_type.id as string;
};

export const sha256 = (file: string): string =>
  createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Requests around a share migration on a test server (an admin's, unless a token is given). */
export const migrationSteps = (hawser: Pick<HawserTestServer, 'request'>) => {
  const action = (shareId: string, body: unknown, token?: string) =>
    hawser.request('POST', `/v2/shares/${shareId}/action`, body, {
      version: MIGRATION_VERSION,
      ...(token && { token }),
    });
  const show = async (shareId: string) =>
    (await hawser.request('GET', `/v2/shares/${shareId}`, undefined, { version: '2.54' })).body
      .share as { status: string; host: string; task_state: string | null; progress: string };
  /** The share's local directory: the path of its admin-only export location. */
  const directoryOf = async (shareId: string): Promise<string> => {
    const listed = await hawser.request('GET', `/v2/shares/${shareId}/export_locations`);
    const local = (listed.body.export_locations as { path: string; is_admin_only: boolean }[]).find(
      (l) => l.is_admin_only,
    );
    if (!local) throw new Error(`share ${shareId} has no local export location`);
    return local.path;
  };
  const waitForTaskState = (shareId: string, taskState: string, timeoutMs = 30_000) =>
    eventually(
      async () => {
        const share = await show(shareId);
        return share.task_state === taskState ? share : undefined;
      },
      timeoutMs,
      `share ${shareId} to reach ${taskState}`,
    );
  /** An available share of `type` holding `bytes` of random data in data.bin. */
  const shareWithData = async (type: string, bytes: number, name = 'migrating') => {
    const created = await hawser.request('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: type, name },
    });
    if (created.status !== 200) throw new Error(JSON.stringify(created.body));
    const shareId = created.body.share.id as string;
    await eventually(
      async () => ((await show(shareId)).status === 'available' ? true : undefined),
      20_000,
      'share to be available',
    );
    const dir = await directoryOf(shareId);
    fs.writeFileSync(path.join(dir, 'data.bin'), randomBytes(bytes));
    return { shareId, dir, checksum: sha256(path.join(dir, 'data.bin')) };
  };
  const start = (
    shareId: string,
    host: string,
    flags: Record<string, unknown> = {},
    token?: string,
  ) =>
    action(
      shareId,
      {
        migration_start: {
          host,
          writable: false,
          preserve_metadata: false,
          nondisruptive: false,
          preserve_snapshots: false,
          force_host_assisted_migration: true,
          ...flags,
        },
      },
      token,
    );
  const progress = async (shareId: string) =>
    (await action(shareId, { migration_get_progress: null })).body as {
      total_progress: number;
      task_state: string;
    };
  return { action, show, directoryOf, waitForTaskState, shareWithData, start, progress };
};
