import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Per-test timeout of the CLI specs: each `manila` run starts a Python interpreter (a second or
 * more on a busy machine) and a step makes several runs.
 */
export const CLI_STEP_TIMEOUT_MS = 120_000;

/** The `manila` executable on PATH, or undefined when python3-manilaclient is not installed. */
export const findManilaCli = (): string | undefined =>
  (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, 'manila'))
    .find((file) => {
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });

export interface ManilaCliTarget {
  /** Hawser's base URL, `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly userId: string;
  /** Hex, as Manila's project_id_regex wants it in the URL. */
  readonly projectId: string;
  readonly microversion: string;
}

export interface ManilaCliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The `REQ:`/`RESP:`/`RESP BODY:` lines of `--debug`: what the CLI sent and what it got. */
  readonly exchanges: string[];
}

/**
 * The variables manilaclient 4.1.1's shell reads for a token plus a bypass URL (shell.py); any
 * other OS_* of the caller's is dropped (OS_CACHE, for one, is true when set to anything).
 */
const cliEnvironment = (target: ManilaCliTarget): NodeJS.ProcessEnv => {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(OS_|MANILACLIENT_)/.test(name)),
  );
  return {
    ...inherited,
    OS_MANILA_BYPASS_URL: `${target.url}/v2/${target.projectId}`,
    OS_TOKEN: `${target.userId}:${target.projectId}`,
    OS_SHARE_API_VERSION: target.microversion,
  };
};

const EXCHANGE = /^(REQ: |RESP: |RESP BODY: )/;

/** Runs `manila --debug ARGS` against Hawser; the debug log goes to stderr, tables to stdout. */
export const runManila = (
  executable: string,
  target: ManilaCliTarget,
  args: readonly string[],
): Promise<ManilaCliResult> =>
  new Promise((resolve) => {
    execFile(
      executable,
      ['--debug', ...args],
      { env: cliEnvironment(target), timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        // manilaclient logs each exchange twice (two handlers); keep the first of each.
        const exchanges = [...new Set(stderr.split('\n').filter((line) => EXCHANGE.test(line)))];
        resolve({ code, stdout, stderr, exchanges });
      },
    );
  });

/** A runner of one spec's CLI steps: a non-zero exit fails with the requests and answers. */
/** Where python3-manilaclient is missing, a suite's one test says so, skipped. */
export const describeSkippedWithoutCli = (title: string): void =>
  describe(title, () => {
    it.skip('skipped: no manila command on PATH (apt-get install python3-manilaclient)', () => {
      expect(findManilaCli()).toBeDefined();
    });
  });

/** Runs CLI steps that must succeed: a non-zero exit fails with the command's story. */
export const cliSteps =
  (executable: string, target: ManilaCliTarget) =>
  async (...args: string[]): Promise<ManilaCliResult> => {
    const result = await runManila(executable, target, args);
    if (result.code !== 0) throw new Error(describeRun(args, result));
    return result;
  };

/** The last `ERROR: ...` line the CLI printed, e.g. `ERROR: ... (HTTP 404) (Request-ID: ...)`. */
export const cliError = (result: ManilaCliResult): string | undefined =>
  result.stderr
    .split('\n')
    .filter((line) => line.startsWith('ERROR: '))
    .pop();

/** One command's story for a failure message: the command, its error and its HTTP exchanges. */
export const describeRun = (args: readonly string[], result: ManilaCliResult): string =>
  [
    `$ manila ${args.join(' ')}  (exit ${result.code})`,
    cliError(result) ?? '',
    ...result.exchanges.map((line) => (line.length > 600 ? `${line.slice(0, 600)}...` : line)),
    result.stdout,
  ]
    .filter(Boolean)
    .join('\n');

const cellsOf = (line: string): string[] =>
  line
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.trim());

const rowsOf = (columns: string[], rows: string[][]): Record<string, string>[] =>
  rows.map((cells) => Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ''])));

/**
 * Parses the prettytables manilaclient prints, one after another (`pool-list --detail` prints
 * one per pool): three border lines frame each table's header and rows, and a row whose first
 * cell is blank continues the row above (multi-line values such as export locations).
 */
export const parseTables = (text: string): Record<string, string>[][] => {
  const tables: Record<string, string>[][] = [];
  let borders = 0;
  let columns: string[] = [];
  let rows: string[][] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('+')) {
      borders += 1;
      if (borders === 3) {
        tables.push(rowsOf(columns, rows));
        [borders, columns, rows] = [0, [], []];
      }
    } else if (line.startsWith('|') && borders === 1) {
      columns = cellsOf(line);
    } else if (line.startsWith('|') && borders === 2) {
      const cells = cellsOf(line);
      const previous = rows[rows.length - 1];
      if (cells[0] === '' && previous) {
        cells.forEach((cell, i) => {
          if (cell !== '') previous[i] = previous[i] ? `${previous[i]}\n${cell}` : cell;
        });
      } else {
        rows.push(cells);
      }
    }
  }
  return tables;
};

/** The rows of the first table printed. */
export const parseTable = (text: string): Record<string, string>[] => parseTables(text)[0] ?? [];

/** A `Property | Value` table (show, create) as one object. */
export const propertiesOf = (rows: Record<string, string>[]): Record<string, string> =>
  Object.fromEntries(rows.map((row) => [row.Property ?? '', row.Value ?? '']));

export const parseProperties = (text: string): Record<string, string> =>
  propertiesOf(parseTable(text));
