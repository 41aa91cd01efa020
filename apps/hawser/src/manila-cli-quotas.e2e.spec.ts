import { jest } from '@jest/globals';
import {
  CLI_STEP_TIMEOUT_MS,
  describeSkippedWithoutCli,
  findManilaCli,
  parseProperties,
} from './test-support/manila-cli.js';
import { adminCliSession } from './test-support/admin-cli-session.js';

/*
 * Quotas per user and per share type, and quota classes, driven by the real manila CLI
 * (python3-manilaclient): quota-update / quota-show / quota-delete with --user-id and
 * --share-type, quota-class-update and quota-class-show; each step's effect checked over HTTP.
 */

jest.setTimeout(CLI_STEP_TIMEOUT_MS);

const manila = findManilaCli();
const PROJECT = 'ab12ab12ab12ab12ab12ab12ab12ab12';

if (!manila) {
  describeSkippedWithoutCli('the manila CLI setting quotas per user, per share type and class');
} else {
  const { hawser, http, cli } = await adminCliSession(manila, PROJECT);
  const shown = async (...args: string[]) =>
    parseProperties((await cli('quota-show', '--tenant-id', PROJECT, ...args)).stdout);

  describe('the manila CLI setting quotas per user, per share type and per class', () => {
    afterAll(() => hawser.close());

    it('quota-update --user-id, quota-show --user-id, quota-delete --user-id', async () => {
      await cli('quota-update', PROJECT, '--user-id', 'alice', '--shares', '3');
      expect(await shown('--user-id', 'alice')).toMatchObject({ shares: '3', gigabytes: '1000' });
      const api = await http('GET', `/v2/quota-sets/${PROJECT}?user_id=alice`);
      expect(api.body.quota_set.shares).toBe(3);
      expect(await shown()).toMatchObject({ shares: '50' });

      await cli('quota-delete', '--tenant-id', PROJECT, '--user-id', 'alice');
      expect(await shown('--user-id', 'alice')).toMatchObject({ shares: '50' });
    });

    it('quota-update --share-type, quota-show --share-type --detail, quota-delete --share-type', async () => {
      await cli('type-create', 'gold', 'false');
      await cli('quota-update', PROJECT, '--share-type', 'gold', '--gigabytes', '7');
      const ofType = await shown('--share-type', 'gold');
      expect(ofType).toMatchObject({ gigabytes: '7', shares: '50' });
      expect(ofType).not.toHaveProperty('share_networks');
      const detail = await shown('--share-type', 'gold', '--detail');
      expect(detail.gigabytes).toMatch(/in_use.*0/);
      const api = await http('GET', `/v2/quota-sets/${PROJECT}/detail?share_type=gold`);
      expect(api.body.quota_set.gigabytes).toEqual({ limit: 7, in_use: 0, reserved: 0 });

      await cli('quota-delete', '--tenant-id', PROJECT, '--share-type', 'gold');
      expect(await shown('--share-type', 'gold')).toMatchObject({ gigabytes: '1000' });
    });

    it("quota-update refuses a user's limit above the project's, as Manila does", async () => {
      await cli('quota-update', PROJECT, '--shares', '10');
      await expect(
        cli('quota-update', PROJECT, '--user-id', 'alice', '--shares', '11'),
      ).rejects.toThrow(/Quota limit must be less than 10\./);
      await cli('quota-delete', '--tenant-id', PROJECT);
    });

    it('quota-class-update default, quota-class-show default: the defaults of every project', async () => {
      await cli('quota-class-update', 'default', '--shares', '20', '--snapshots', '30');
      const shownClass = parseProperties((await cli('quota-class-show', 'default')).stdout);
      expect(shownClass).toMatchObject({ shares: '20', snapshots: '30', gigabytes: '1000' });
      expect(await shown()).toMatchObject({ shares: '20', snapshots: '30' });
      const defaults = await http('GET', `/v2/quota-sets/${PROJECT}/defaults`);
      expect(defaults.body.quota_set).toMatchObject({ shares: 20, snapshots: 30 });
    });
  });
}
