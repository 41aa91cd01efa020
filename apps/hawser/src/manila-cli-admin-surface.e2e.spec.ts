import { jest } from '@jest/globals';
import {
  CLI_STEP_TIMEOUT_MS,
  cliSteps,
  describeSkippedWithoutCli,
  findManilaCli,
  parseProperties,
  parseTable,
  type ManilaCliTarget,
} from './test-support/manila-cli.js';
import { eventually, startHawser } from './test-support/hawser-test-server.js';

/*
 * What the real manila CLI drives beyond wave 1: the recycle bin (soft-delete, list
 * --soft-deleted, restore) and the services' enable and disable.
 */

jest.setTimeout(CLI_STEP_TIMEOUT_MS);

const manila = findManilaCli();
const PROJECT = 'f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1';

if (!manila) {
  describeSkippedWithoutCli('the manila CLI: recycle bin and services');
} else {
  describe('the manila CLI: recycle bin (2.69) and services', () => {
    let target: ManilaCliTarget;
    let hawser: Awaited<ReturnType<typeof startHawser>>;
    const cli = async (...args: string[]) => (await cliSteps(manila, target)(...args)).stdout;
    const listed = async (...args: string[]) =>
      parseTable(await cli('list', ...args)).map((row) => row.ID);

    beforeAll(async () => {
      hawser = await startHawser({ env: { HAWSER_SOFT_DELETE_RETENTION_S: '3600' } });
      target = { url: hawser.url, userId: 'admin', projectId: PROJECT, microversion: '2.72' };
      await cli('type-create', 'default', 'false');
    });
    afterAll(() => hawser.close());

    it('soft-delete moves a share to the bin, list --soft-deleted shows it, restore brings it back', async () => {
      const id = parseProperties(await cli('create', 'NFS', '1', '--share-type', 'default')).id!;
      await eventually(async () => {
        const share = (await hawser.request('GET', `/v2/shares/${id}`)).body.share;
        return share.status === 'available' ? share : undefined;
      });

      await cli('soft-delete', id);
      expect(await listed()).not.toContain(id);
      expect(await listed('--soft-deleted')).toEqual([id]);
      const shown = parseProperties(await cli('show', id));
      expect(shown.is_soft_deleted).toBe('True');
      expect(shown.scheduled_to_be_deleted_at).not.toBe('None');

      await cli('restore', id);
      expect(await listed()).toContain(id);
      expect(await listed('--soft-deleted')).toEqual([]);
      expect(parseProperties(await cli('show', id)).is_soft_deleted).toBe('False');
    });

    it('service-disable shows the back end disabled in service-list; service-enable brings it back', async () => {
      await cli('service-disable', 'sim@a1', 'manila-share');
      const disabled = parseTable(await cli('service-list', '--binary', 'manila-share'));
      expect(disabled.find((row) => row.Host === 'sim@a1')).toMatchObject({ Status: 'disabled' });
      expect(disabled.filter((row) => row.Status === 'disabled')).toHaveLength(1);
      await cli('service-enable', 'sim@a1', 'manila-share');
      const enabled = parseTable(await cli('service-list', '--binary', 'manila-share'));
      expect(enabled.every((row) => row.Status === 'enabled')).toBe(true);
    });
  });
}
