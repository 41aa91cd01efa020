import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fromSnapshotBackends } from './test-support/from-snapshot-backends.js';
import { adminCliSession } from './test-support/admin-cli-session.js';
import { eventually } from './test-support/hawser-test-server.js';
import { expectRisingProgress, watchUntilSettled } from './test-support/share-progress.js';
import {
  cliError,
  CLI_STEP_TIMEOUT_MS,
  findManilaCli,
  parseProperties,
  parseTable,
  runManila,
  describeSkippedWithoutCli,
} from './test-support/manila-cli.js';

/*
 * A share created from a snapshot in another zone with the real manila CLI
 * (python3-manilaclient), use_scheduler_creating_share_from_snapshot on: `manila create NFS 1
 * --snapshot-id ... --az az-2`, then `manila show` until it is available, watching the status
 * and the progress the share node's poll records. Each step is checked over HTTP too.
 */

jest.setTimeout(CLI_STEP_TIMEOUT_MS);

const manila = findManilaCli();
const PROJECT = 'feedc0defeedc0defeedc0defeedc0de';
const MIB = 1024 * 1024;
const COPY_BYTES_PER_SECOND = MIB / 4;
/** Each test runs several CLI commands, each a Python start-up: seconds on a busy machine. */
const CLI_TEST_TIMEOUT_MS = 300_000;

/**
 * Enough data for the copy to last about eight `manila show`s, as long as one takes here
 * (measured), between 4 and 64 MiB.
 */
const dataLastingFor = (cliSeconds: number): Buffer => {
  const bytes = Math.round(COPY_BYTES_PER_SECOND * 8 * cliSeconds);
  return randomBytes(Math.min(64 * MIB, Math.max(4 * MIB, bytes)));
};

if (!manila) {
  describeSkippedWithoutCli('the manila CLI creating shares from snapshots');
} else {
  const { hawser, http, cli, target } = await adminCliSession(manila, PROJECT, {
    backends: (dataDir) => fromSnapshotBackends(dataDir, COPY_BYTES_PER_SECOND),
    env: {
      HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT: 'true',
      HAWSER_SHARE_STATUS_POLL_MS: '200',
    },
  });
  const show = async (name: string) => parseProperties((await cli('show', name)).stdout);
  const localDirectoryOf = async (shareId: string): Promise<string> => {
    const listed = await http('GET', `/v2/shares/${shareId}/export_locations`);
    const local = (listed.body.export_locations as { path: string; is_admin_only: boolean }[]).find(
      (l) => l.is_admin_only,
    );
    return (local as { path: string }).path;
  };

  // Without --share-type the CLI insists on a type named `default`; a clone then takes its
  // source's type whatever its name.
  describe('the manila CLI creating a share from a snapshot in another zone', () => {
    let data: Buffer;
    let sourceId: string;
    let snapshotId: string;
    let cloneId: string;

    afterAll(() => hawser.close());

    it(
      'type-create default with snapshot and create-from-snapshot support, pinned to alpha',
      async () => {
        await cli(
          'type-create',
          'default',
          'false',
          '--snapshot-support',
          'true',
          '--create-share-from-snapshot-support',
          'true',
          '--extra-specs',
          'share_backend_name=alpha',
        );
        const types = (await http('GET', '/v2/types')).body.share_types as {
          name: string;
          extra_specs: Record<string, string>;
        }[];
        const type = types.find((t) => t.name === 'default');
        expect(type?.extra_specs).toMatchObject({
          snapshot_support: 'True',
          create_share_from_snapshot_support: 'True',
          share_backend_name: 'alpha',
        });
      },
      CLI_TEST_TIMEOUT_MS,
    );

    it(
      'create NFS 1 --name source: available on alpha in az-1; data written into it; snapshot-create',
      async () => {
        const created = parseProperties(
          (await cli('create', 'NFS', '1', '--name', 'source', '--share-type', 'default')).stdout,
        );
        sourceId = created.id!;
        let cliSeconds = 0;
        await eventually(
          async () => {
            const started = performance.now();
            const status = (await show('source')).status;
            cliSeconds = (performance.now() - started) / 1000;
            return status === 'available' ? true : undefined;
          },
          CLI_TEST_TIMEOUT_MS,
          'the source share',
        );
        data = dataLastingFor(cliSeconds);
        const source = (await http('GET', `/v2/shares/${sourceId}`)).body.share;
        expect(source).toMatchObject({
          availability_zone: 'az-1',
          host: expect.stringMatching(/@alpha#/),
        });
        fs.writeFileSync(path.join(await localDirectoryOf(sourceId), 'data.bin'), data);

        const snapshot = parseProperties(
          (await cli('snapshot-create', 'source', '--name', 'snap')).stdout,
        );
        snapshotId = snapshot.id!;
        await eventually(
          async () =>
            parseProperties((await cli('snapshot-show', 'snap')).stdout).status === 'available'
              ? true
              : undefined,
          CLI_TEST_TIMEOUT_MS,
          'the snapshot',
        );
      },
      CLI_TEST_TIMEOUT_MS,
    );

    it(
      'create NFS 1 --snapshot-id ... --az az-2: creating_from_snapshot with rising progress, then available',
      async () => {
        const created = parseProperties(
          (
            await cli(
              'create',
              'NFS',
              '1',
              '--snapshot-id',
              snapshotId,
              '--az',
              'az-2',
              '--name',
              'clone',
            )
          ).stdout,
        );
        cloneId = created.id!;
        expect(created).toMatchObject({
          snapshot_id: snapshotId,
          availability_zone: 'az-2',
          share_type_name: 'default',
        });

        const { last: final, seen } = await watchUntilSettled(async () => {
          const shown = await show('clone');
          return { ...shown, status: shown.status ?? '', progress: shown.progress ?? null };
        }, CLI_TEST_TIMEOUT_MS);
        expect(final).toMatchObject({
          status: 'available',
          progress: '100%',
          availability_zone: 'az-2',
          host: 'node-az2@charlie#pool1',
        });

        const percents = expectRisingProgress(seen);
        console.info(`manila show during the copy: ${percents.map((p) => `${p}%`).join(', ')}`);

        const copied = fs.readFileSync(path.join(await localDirectoryOf(cloneId), 'data.bin'));
        expect(copied.equals(data)).toBe(true);
        const locations = parseTable((await cli('share-export-location-list', 'clone')).stdout);
        expect(locations.length).toBeGreaterThan(0);
      },
      CLI_TEST_TIMEOUT_MS,
    );

    it(
      'message-list --resource-id: the INFO messages of the background creation and its end',
      async () => {
        const list = (...filters: string[]) =>
          cli('message-list', '--resource-id', cloneId, ...filters).then((r) =>
            parseTable(r.stdout),
          );
        const info = await list('--level', 'INFO');
        expect(info.map((r) => [r['Action ID'], r['Detail ID']]).sort()).toEqual([
          ['002', '901'],
          ['005', '902'],
        ]);
        expect(await list('--level', 'ERROR')).toEqual([]);
      },
      CLI_TEST_TIMEOUT_MS,
    );

    it(
      'create --snapshot-id ... --share-type other: refused with a 400, nothing created',
      async () => {
        await cli('type-create', 'other', 'false');
        const before = parseTable((await cli('list')).stdout).length;
        const refused = await runManila(manila, target, [
          'create',
          'NFS',
          '1',
          '--snapshot-id',
          snapshotId,
          '--share-type',
          'other',
        ]);
        expect(refused.code).not.toBe(0);
        expect(cliError(refused)).toMatch(/must match the type of the source share.*HTTP 400/);
        expect(parseTable((await cli('list')).stdout).length).toBe(before);
      },
      CLI_TEST_TIMEOUT_MS,
    );
  });
}
