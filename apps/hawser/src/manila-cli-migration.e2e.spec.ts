import { jest } from '@jest/globals';
import { fromSnapshotBackends } from './test-support/from-snapshot-backends.js';
import { adminCliSession } from './test-support/admin-cli-session.js';
import { eventually } from './test-support/hawser-test-server.js';
import {
  CLI_STEP_TIMEOUT_MS,
  describeSkippedWithoutCli,
  findManilaCli,
  parseProperties,
} from './test-support/manila-cli.js';

/*
 * Share migration with the real manila CLI (python3-manilaclient) against the embedded
 * default on local back ends: migration-start (host-assisted), migration-get-progress until
 * the first phase is done, migration-complete; another share migration-cancel; and
 * reset-task-state. Each step is checked over HTTP too.
 */

jest.setTimeout(CLI_STEP_TIMEOUT_MS);

const manila = findManilaCli();
const PROJECT = 'feedc0defeedc0defeedc0defeedc0de';
const CHARLIE = 'node-az2@charlie#pool1';
const TEST_TIMEOUT_MS = 300_000;

if (!manila) {
  describeSkippedWithoutCli('the manila CLI migrating shares');
} else {
  const { hawser, http, cli } = await adminCliSession(manila, PROJECT, {
    backends: (dataDir) => fromSnapshotBackends(dataDir),
    env: { HAWSER_SHARE_STATUS_POLL_MS: '200' },
    microversion: '2.29',
  });
  const taskStateOf = async (id: string) =>
    (await http('GET', `/v2/shares/${id}`)).body.share.task_state as string | null;
  const createdShare = async (name: string) => {
    await cli('create', 'NFS', '1', '--name', name, '--share-type', 'default');
    return eventually(
      async () => {
        const shares = (await http('GET', '/v2/shares/detail')).body.shares as {
          id: string;
          name: string;
          status: string;
          host: string;
        }[];
        const share = shares.find((s) => s.name === name);
        return share?.status === 'available' ? share : undefined;
      },
      20_000,
      `share ${name} to be available`,
    );
  };
  const migrationStart = (name: string, host: string) =>
    cli(
      'migration-start',
      name,
      host,
      '--writable',
      'False',
      '--preserve-metadata',
      'False',
      '--nondisruptive',
      'False',
      '--preserve-snapshots',
      'False',
      '--force-host-assisted-migration',
      'True',
    );
  const progressUntil = (name: string, taskState: string) =>
    eventually(
      async () => {
        const progress = parseProperties((await cli('migration-get-progress', name)).stdout);
        return progress.task_state === taskState ? progress : undefined;
      },
      60_000,
      `${name} to reach ${taskState}`,
    );

  describe('the manila CLI migrating shares', () => {
    afterAll(() => hawser.close());

    it(
      'migration-start, migration-get-progress, migration-complete',
      async () => {
        await cli('type-create', 'default', 'false');
        const share = await createdShare('moving');
        const destination = share.host === CHARLIE ? 'node-az1@alpha#pool1' : CHARLIE;
        await migrationStart('moving', destination);
        expect(await progressUntil('moving', 'data_copying_completed')).toMatchObject({
          total_progress: '100',
        });
        await cli('migration-complete', 'moving');
        await eventually(
          async () => ((await taskStateOf(share.id)) === 'migration_success' ? true : undefined),
          30_000,
          'the migration to succeed',
        );
        const shown = parseProperties((await cli('show', 'moving')).stdout);
        expect(shown).toMatchObject({ task_state: 'migration_success', status: 'available' });
        expect((await http('GET', `/v2/shares/${share.id}`)).body.share.host).toBe(destination);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'migration-cancel, then reset-task-state',
      async () => {
        const share = await createdShare('staying');
        const destination = share.host === CHARLIE ? 'node-az1@alpha#pool1' : CHARLIE;
        await migrationStart('staying', destination);
        await progressUntil('staying', 'data_copying_completed');
        await cli('migration-cancel', 'staying');
        await eventually(
          async () => ((await taskStateOf(share.id)) === 'migration_cancelled' ? true : undefined),
          30_000,
          'the migration to be cancelled',
        );
        expect((await http('GET', `/v2/shares/${share.id}`)).body.share).toMatchObject({
          status: 'available',
          host: share.host,
        });
        await cli('reset-task-state', 'staying', '--state', 'migration_error');
        expect(await taskStateOf(share.id)).toBe('migration_error');
        await cli('reset-task-state', 'staying', '--state', 'None');
        expect(await taskStateOf(share.id)).toBeNull();
      },
      TEST_TIMEOUT_MS,
    );
  });
}
