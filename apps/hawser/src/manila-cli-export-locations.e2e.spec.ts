import { jest } from '@jest/globals';
import {
  findManilaCli,
  parseProperties,
  parseTable,
  type ManilaCliTarget,
  CLI_STEP_TIMEOUT_MS,
  describeSkippedWithoutCli,
  cliSteps,
} from './test-support/manila-cli.js';
import { eventually, startHawser } from './test-support/hawser-test-server.js';

/*
 * Export locations and share instances as the real manila CLI shows them: the list and show
 * commands read Hawser's views and print every field they carry.
 */

jest.setTimeout(CLI_STEP_TIMEOUT_MS);

const manila = findManilaCli();
const PROJECT = 'e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1';

if (!manila) {
  describeSkippedWithoutCli('the manila CLI: export locations');
} else {
  describe('the manila CLI: export locations and share instances', () => {
    let target: ManilaCliTarget;
    let hawser: Awaited<ReturnType<typeof startHawser>>;
    let shareId: string;

    // The target is known once the server listens.
    const cli = async (...args: string[]) => (await cliSteps(manila, target)(...args)).stdout;

    beforeAll(async () => {
      hawser = await startHawser();
      target = { url: hawser.url, userId: 'admin', projectId: PROJECT, microversion: '2.72' };
      await cli('type-create', 'default', 'false');
      shareId = parseProperties(await cli('create', 'NFS', '1', '--share-type', 'default')).id!;
      await eventually(async () => {
        const share = (await hawser.request('GET', `/v2/shares/${shareId}`)).body.share;
        return share.status === 'available' ? share : undefined;
      });
    });
    afterAll(() => hawser.close());

    it('share-export-location-show: every field of the detail view', async () => {
      const [row] = parseTable(await cli('share-export-location-list', shareId));
      const shown = parseProperties(await cli('share-export-location-show', shareId, row!.ID!));
      const api = (await hawser.request('GET', `/v2/shares/${shareId}/export_locations/${row!.ID}`))
        .body.export_location;
      expect(Object.keys(shown).sort()).toEqual(Object.keys(api).sort());
      expect(shown).toMatchObject({
        id: api.id,
        path: api.path,
        preferred: api.preferred ? 'True' : 'False',
        is_admin_only: api.is_admin_only ? 'True' : 'False',
        share_instance_id: api.share_instance_id,
      });
    });

    it('share-instance-list and share-instance-export-location-list', async () => {
      const [instance] = parseTable(await cli('share-instance-list', '--share-id', shareId));
      expect(instance).toMatchObject({ 'Share ID': shareId, Status: 'available' });
      const rows = parseTable(await cli('share-instance-export-location-list', instance!.ID!));
      const api = (
        await hawser.request('GET', `/v2/share_instances/${instance!.ID}/export_locations`)
      ).body.export_locations as { id: string; path: string }[];
      // The CLI prints the rows in its own order.
      expect(rows.map((r) => [r.ID, r.Path]).sort()).toEqual(api.map((l) => [l.id, l.path]).sort());
    });
  });
}
