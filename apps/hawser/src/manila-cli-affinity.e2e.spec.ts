import { jest } from '@jest/globals';
import { eventually, startHawser } from './test-support/hawser-test-server.js';
import {
  cliError,
  findManilaCli,
  parseProperties,
  runManila,
  type ManilaCliTarget,
  CLI_STEP_TIMEOUT_MS,
  describeSkippedWithoutCli,
  cliSteps,
} from './test-support/manila-cli.js';
import { backendsWithOneBigPool, BIG_POOL } from './test-support/simulated-backends.js';

/*
 * `manila create ... --scheduler-hints` (python3-manilaclient, microversion 2.72) end to end:
 * the CLI resolves share names to ids and sends same_host / different_host as comma-separated
 * strings; each placement is checked over HTTP. Without hints every share would go to BIG_POOL.
 */

jest.setTimeout(CLI_STEP_TIMEOUT_MS);

const manila = findManilaCli();
const PROJECT = 'affe0000affe0000affe0000affe0000';
const SAME = '__affinity_same_host';
const DIFFERENT = '__affinity_different_host';

interface Share {
  readonly id: string;
  readonly host: string;
  readonly status: string;
  readonly metadata: Record<string, string>;
}

if (!manila) {
  describeSkippedWithoutCli('scheduler hints with the manila CLI');
} else {
  const hawser = await startHawser({ backends: backendsWithOneBigPool });
  const http = (method: string, route: string) =>
    hawser.request(method, route, undefined, { token: `admin:${PROJECT}` });
  const target: ManilaCliTarget = {
    url: hawser.url,
    userId: 'admin',
    projectId: PROJECT,
    microversion: '2.72',
  };
  const run = (...args: string[]) => runManila(manila, target, args);
  const cli = cliSteps(manila, target);
  /** `manila create NFS 1 --name NAME ...`, then the share over HTTP once it has settled. */
  const create = async (name: string, ...args: string[]): Promise<Share> => {
    const created = parseProperties(
      (await cli('create', 'NFS', '1', '--name', name, '--share-type', 'default', ...args)).stdout,
    );
    return eventually(
      async () => {
        const share = (await http('GET', `/v2/shares/${created.id}`)).body.share;
        return ['available', 'error'].includes(share?.status) ? share : undefined;
      },
      10_000,
      `${name} to settle`,
    );
  };
  const metadataShow = async (share: string) =>
    parseProperties((await cli('metadata-show', share)).stdout);

  describe('scheduler hints with the manila CLI (python3-manilaclient)', () => {
    let anchor: Share;
    let apart: Share;
    let together: Share;
    let third: Share;

    afterAll(() => hawser.close());

    it('type-create default false; create anchor: on the big pool', async () => {
      await cli('type-create', 'default', 'false');
      anchor = await create('anchor');
      expect(anchor.host).toBe(BIG_POOL);
    });

    it('create apart --scheduler-hints different_host=anchor: on another pool, the hint in its metadata', async () => {
      const args = ['--scheduler-hints', 'different_host=anchor'];
      const result = await run(
        'create',
        'NFS',
        '1',
        '--name',
        'apart',
        '--share-type',
        'default',
        ...args,
      );
      expect(result.code).toBe(0);
      // What the CLI sent: the name resolved to an id, as a comma-separated string.
      const sent = result.exchanges.find((line) => line.includes('"scheduler_hints"'));
      expect(sent).toContain(`"scheduler_hints": {"different_host": "${anchor.id}"}`);
      expect(parseProperties(result.stdout).metadata).toContain(`'${DIFFERENT}': '${anchor.id}'`);
      apart = await eventually(async () => {
        const share = (await http('GET', `/v2/shares/${parseProperties(result.stdout).id}`)).body
          .share;
        return share?.status === 'available' ? share : undefined;
      });
      expect(apart.host).not.toBe(BIG_POOL);
      expect(await metadataShow('anchor')).toEqual({ [DIFFERENT]: apart.id });
    });

    it('create together --scheduler-hints same_host=apart: on the pool of apart', async () => {
      together = await create('together', '--scheduler-hints', `same_host=${apart.id}`);
      expect(together.host).toBe(apart.host);
      const linked = await eventually(async () => {
        const metadata = await metadataShow('apart');
        return metadata[SAME] ? metadata : undefined;
      });
      expect(linked).toEqual({ [DIFFERENT]: anchor.id, [SAME]: together.id });
    });

    it('create third --scheduler-hints different_host=ID1,ID2: on neither pool', async () => {
      third = await create('third', '--scheduler-hints', `different_host=anchor,${apart.id}`);
      expect(third.status).toBe('available');
      expect([anchor.host, apart.host]).not.toContain(third.host);
      expect(third.metadata).toEqual({ [DIFFERENT]: `${anchor.id},${apart.id}` });
    });

    it('create --scheduler-hints same_host=anchor different_host=anchor: error, No valid host', async () => {
      const impossible = await create(
        'impossible',
        '--scheduler-hints',
        'same_host=anchor',
        'different_host=anchor',
      );
      expect(impossible.status).toBe('error');
      const shown = parseProperties((await cli('show', 'impossible')).stdout);
      expect(shown.status).toBe('error');
    });

    it('a hint naming no share: refused by the CLI, nothing created', async () => {
      const refused = await run(
        'create',
        'NFS',
        '1',
        '--name',
        'orphan',
        '--share-type',
        'default',
        '--scheduler-hints',
        'same_host=00000000-0000-4000-8000-000000000000',
      );
      expect(refused.code).not.toBe(0);
      expect(cliError(refused)).toMatch(/No share with a name or ID/);
      const listed = (await http('GET', '/v2/shares?name=orphan')).body.shares;
      expect(listed).toEqual([]);
    });

    it('delete together: apart no longer lists it, and keeps its other links', async () => {
      await cli('delete', 'together');
      const unlinked = await eventually(
        async () => {
          const metadata = await metadataShow('apart');
          return metadata[SAME] === undefined ? metadata : undefined;
        },
        10_000,
        'the link to go',
      );
      expect(unlinked).toEqual({ [DIFFERENT]: `${anchor.id},${third.id}` });
    });
  });
}
