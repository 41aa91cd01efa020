import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  ENTRY_POINTS,
  freePort,
  runUntilExit,
  type EntryPoint,
} from './test-support/hawser-process.js';
import { simulatedBackends } from './test-support/simulated-backends.js';

const CONFIGURATION_ERROR = 78;
const REFUSED = 1;

/**
 * Runs a built process to its end and returns its one line of refusal: the test fails when the
 * output holds more than that line (Nest's start-up lines, a stack trace, a claim of success).
 */
const refusal = async (
  env: Record<string, string>,
  entry: EntryPoint = ENTRY_POINTS.hawser,
): Promise<{ code: number | null; line: string }> => {
  const { code, output } = await runUntilExit(env, entry);
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  expect(lines).toHaveLength(1);
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toMatch(
    /successfully started|listening on http|placing shares|serving .* reports/,
  );
  return { code, line: lines[0] ?? '' };
};

describe('configuration and start-up refusals: one line, no stack trace, a non-zero exit', () => {
  let dir: string;
  let base: Record<string, string>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hawser-config-'));
    base = { PORT: String(await freePort()), HAWSER_DATA_DIR: path.join(dir, 'data') };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const backendsFile = (name: string, content: unknown): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(content));
    return file;
  };

  it('given a variable with a wrong value, when Hawser starts, then it names the variable, what was expected and what was given', async () => {
    const { code, line } = await refusal({ ...base, HAWSER_RESERVATION_EXPIRE_S: 'soon' });

    expect(code).toBe(CONFIGURATION_ERROR);
    expect(line).toBe(
      'Hawser cannot start: environment variable HAWSER_RESERVATION_EXPIRE_S: expected a whole number from 1 to 3153600000, given "soon"',
    );
  });

  it('given an unknown HAWSER_ variable (a typo), when Hawser starts, then it is refused with the variable it resembles', async () => {
    const { code, line } = await refusal({ ...base, HAWSER_DATADIR: '/srv/hawser' });

    expect(code).toBe(CONFIGURATION_ERROR);
    expect(line).toBe(
      'Hawser cannot start: environment variable HAWSER_DATADIR: unknown key (given "/srv/hawser"); did you mean HAWSER_DATA_DIR?',
    );
  });

  it('given a back-end file with a misspelt key and a wrong type, when Hawser starts, then the line names the file, both keys, the expected and the given values', async () => {
    const [backend] = simulatedBackends();
    const file = backendsFile('east.json', [
      {
        ...backend,
        pools: [{ name: 'fast', totalCapacityGB: 200 }],
        options: { reservedPercentage: 'five' },
      },
    ]);

    const { code, line } = await refusal({ ...base, HAWSER_BACKENDS: file });

    expect(code).toBe(CONFIGURATION_ERROR);
    expect(line).toBe(
      `Hawser cannot start: back-end file ${file} (HAWSER_BACKENDS): ` +
        '[0].pools[0].totalCapacityGB: unknown key (given 200); did you mean totalCapacityGb?; ' +
        '[0].options.reservedPercentage: expected a number from 0 to 100, given "five"',
    );
  });

  it('given a back-end file that breaks a rule across keys, when Hawser starts, then the line names the file and the entry', async () => {
    const [backend] = simulatedBackends();
    const file = backendsFile('twice.json', {
      backends: [{ ...backend, pools: [{ name: 'p' }, { name: 'p' }] }],
    });

    const { code, line } = await refusal({ ...base, HAWSER_BACKENDS: file });

    expect(code).toBe(CONFIGURATION_ERROR);
    expect(line).toBe(
      `Hawser cannot start: back-end file ${file} (HAWSER_BACKENDS): backends[0]: invalid back end ${backend?.name}: pool "p" is listed twice`,
    );
  });

  it('given HAWSER_BACKENDS naming a missing file, when Hawser starts, then the line names the file', async () => {
    const file = path.join(dir, 'missing.json');

    const { code, line } = await refusal({ ...base, HAWSER_BACKENDS: file });

    expect(code).toBe(CONFIGURATION_ERROR);
    expect(line).toBe(
      `Hawser cannot start: back-end file ${file} (HAWSER_BACKENDS): cannot be read (ENOENT)`,
    );
  });

  it('given the port in use, when Hawser starts, then it names the address and never claims to have started', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(Number(base.PORT), '127.0.0.1', resolve));
    try {
      const { code, line } = await refusal(base);

      expect(code).toBe(REFUSED);
      expect(line).toBe(
        `Hawser cannot start: cannot listen on 127.0.0.1:${base.PORT} (PORT, HAWSER_BIND): another process is listening there (EADDRINUSE)`,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it.each([
    ['MONGO_URL', 'mongodb://127.0.0.1:1/hawser'],
    ['EVENTSTORE_URL', 'kurrentdb://127.0.0.1:1?tls=false'],
  ])(
    'given %s pointing where nothing answers, when Hawser starts, then it gives up after HAWSER_STORE_WAIT_S naming the store',
    async (variable, url) => {
      const { code, line } = await refusal({ ...base, [variable]: url, HAWSER_STORE_WAIT_S: '1' });

      expect(code).toBe(REFUSED);
      expect(line).toMatch(
        new RegExp(
          `^Hawser cannot start: ${variable} ${url.replace(/[?.]/g, '\\$&')} did not answer within 1 s \\(HAWSER_STORE_WAIT_S\\): \\S`,
        ),
      );
    },
  );

  it('given a data directory below a file, when Hawser starts, then it names the directory and the reason', async () => {
    const file = path.join(dir, 'not-a-directory');
    fs.writeFileSync(file, '');

    const { code, line } = await refusal({ ...base, HAWSER_DATA_DIR: path.join(file, 'data') });

    expect(code).toBe(REFUSED);
    expect(line).toBe(
      `Hawser cannot start: data directory ${path.join(file, 'data')} cannot be created: a part of the path is not a directory (ENOTDIR)`,
    );
  });

  it('given no NATS_URL, when the scheduler starts, then it is refused for its configuration', async () => {
    const { code, line } = await refusal({ ...base, NATS_URL: '' }, ENTRY_POINTS.scheduler);

    expect(code).toBe(CONFIGURATION_ERROR);
    expect(line).toMatch(/^Hawser scheduler cannot start: environment variable NATS_URL: expected/);
  });

  it('given no HAWSER_NODE_NAME, when a share node starts, then it is refused for its configuration', async () => {
    const { code, line } = await refusal(
      { ...base, NATS_URL: 'nats://127.0.0.1:4222', HAWSER_NODE_NAME: '' },
      ENTRY_POINTS.shareNode,
    );

    expect(code).toBe(CONFIGURATION_ERROR);
    expect(line).toMatch(
      /^Hawser share node cannot start: environment variable HAWSER_NODE_NAME: expected/,
    );
  });
});

describe('--help on each process', () => {
  it.each(Object.entries(ENTRY_POINTS))(
    'given %s --help, then it lists the environment it reads and exits 0 without starting',
    async (_name, entry) => {
      const { code, output } = await runUntilExit({}, entry, ['--help']);

      expect(code).toBe(0);
      expect(output).toMatch(/^Usage: hawser/);
      expect(output).toContain('HAWSER_DATA_DIR');
      expect(output).toContain('HAWSER_BACKENDS');
      expect(output).not.toContain('Nest');
    },
  );
});
