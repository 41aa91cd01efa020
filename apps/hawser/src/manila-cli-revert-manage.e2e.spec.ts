import { jest } from '@jest/globals';
import {
  CLI_STEP_TIMEOUT_MS,
  findManilaCli,
  parseProperties,
  parseTable,
  describeSkippedWithoutCli,
} from './test-support/manila-cli.js';
import { adminCliSession } from './test-support/admin-cli-session.js';
import { eventually } from './test-support/hawser-test-server.js';

/*
 * Revert to snapshot, manage and unmanage driven by the real manila CLI (python3-manilaclient):
 * a type with revert_to_snapshot_support, a share, a snapshot, the share extended, then
 * `manila revert-to-snapshot`; `manila manage` of a share the simulated back end holds, then
 * `manila unmanage`; `manila snapshot-manage` of a snapshot the simulated back end holds, then
 * `manila snapshot-unmanage`. Each step's effect is checked over HTTP too.
 */

jest.setTimeout(CLI_STEP_TIMEOUT_MS);

const manila = findManilaCli();
const PROJECT = 'decaf000decaf000decaf000decaf000';

if (!manila) {
  describeSkippedWithoutCli('the manila CLI reverting, managing and unmanaging shares');
} else {
  const { hawser, http, cli } = await adminCliSession(manila, PROJECT);
  const statusOf = async (route: string, key: string) => (await http('GET', route)).body[key];
  const waitFor = (route: string, key: string, check: (doc: Record<string, unknown>) => boolean) =>
    eventually(
      async () => {
        const doc = await statusOf(route, key);
        return doc && check(doc) ? doc : undefined;
      },
      10_000,
      `${route} to settle`,
    );

  describe('the manila CLI reverting a share to its latest snapshot, managing and unmanaging one', () => {
    let shareId: string;
    let snapshotId: string;

    afterAll(() => hawser.close());

    it('type-create default with snapshot and revert support; create, snapshot-create, extend', async () => {
      await cli(
        'type-create',
        'default',
        'false',
        '--snapshot-support',
        'true',
        '--revert-to-snapshot-support',
        'true',
      );
      shareId = parseProperties(
        (await cli('create', 'NFS', '1', '--name', 'reverted', '--share-type', 'default')).stdout,
      ).id!;
      await waitFor(`/v2/shares/${shareId}`, 'share', (s) => s.status === 'available');
      snapshotId = parseProperties(
        (await cli('snapshot-create', 'reverted', '--name', 'point')).stdout,
      ).id!;
      await waitFor(`/v2/snapshots/${snapshotId}`, 'snapshot', (s) => s.status === 'available');
      await cli('extend', 'reverted', '2');
      await waitFor(
        `/v2/shares/${shareId}`,
        'share',
        (s) => s.status === 'available' && s.size === 2,
      );
    });

    it('revert-to-snapshot point: the share is available again with the snapshot size', async () => {
      await cli('revert-to-snapshot', 'point');
      const share = await waitFor(
        `/v2/shares/${shareId}`,
        'share',
        (s) => s.status === 'available' && s.size === 1,
      );
      expect(share).toMatchObject({ revert_to_snapshot_support: true });
      const shown = parseProperties((await cli('show', 'reverted')).stdout);
      expect(shown).toMatchObject({ size: '1', status: 'available' });
    });

    it('snapshot-instance-list --snapshot point: its one instance, available', async () => {
      const rows = parseTable((await cli('snapshot-instance-list', '--snapshot', 'point')).stdout);
      expect(rows).toEqual([
        expect.objectContaining({ 'Snapshot ID': snapshotId, Status: 'available' }),
      ]);
    });

    it('manage sim@a1#fast NFS ... --driver-options size=2, then unmanage: adopted with its size, then gone', async () => {
      const managed = parseProperties(
        (
          await cli(
            'manage',
            'sim@a1#fast',
            'NFS',
            'sim@a1:/legacy/adopted',
            '--name',
            'adopted',
            '--share-type',
            'default',
            '--driver-options',
            'size=2',
          )
        ).stdout,
      );
      expect(managed).toMatchObject({ name: 'adopted', status: 'manage_starting' });
      const id = managed.id!;
      await waitFor(`/v2/shares/${id}`, 'share', (s) => s.status === 'available' && s.size === 2);

      await cli('unmanage', 'adopted');
      await eventually(
        async () => ((await http('GET', `/v2/shares/${id}`)).status === 404 ? true : undefined),
        10_000,
        'the unmanaged share to be gone',
      );
    });

    it('snapshot-manage reverted legacy-point --driver-options size=3, then snapshot-unmanage: adopted with its size, then gone', async () => {
      const managed = parseProperties(
        (
          await cli(
            'snapshot-manage',
            'reverted',
            'legacy-point',
            '--name',
            'adopted-point',
            '--description',
            'from before',
            '--driver-options',
            'size=3',
          )
        ).stdout,
      );
      expect(managed).toMatchObject({
        name: 'adopted-point',
        status: 'manage_starting',
        provider_location: 'legacy-point',
      });
      const id = managed.id!;
      await waitFor(
        `/v2/snapshots/${id}`,
        'snapshot',
        (s) => s.status === 'available' && s.size === 3,
      );
      const listed = parseTable((await cli('snapshot-list', '--share-id', shareId)).stdout);
      expect(listed).toEqual(
        expect.arrayContaining([expect.objectContaining({ ID: id, Status: 'available' })]),
      );

      await cli('snapshot-unmanage', 'adopted-point');
      await eventually(
        async () => ((await http('GET', `/v2/snapshots/${id}`)).status === 404 ? true : undefined),
        10_000,
        'the unmanaged snapshot to be gone',
      );
    });
  });
}
