import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** A real Node process that installs the built handlers, then fails as `fault` says. */
const runFailing = (fault: string) =>
  spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { exitOnUnhandledErrors } from '#hawser/platform';
       exitOnUnhandledErrors('Hawser scheduler');
       ${fault}
       setTimeout(() => console.log('still running'), 2000);`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );

describe('a fault nothing handles ends the process, logged', () => {
  it('given a promise rejected with no handler (a failed start-up wait), then the process logs it and exits 70', () => {
    const result = runFailing(`Promise.reject(new Error('reports could not be read'));`);

    expect(result.status).toBe(70);
    expect(result.stderr.split('\n')[0]).toBe(
      'Hawser scheduler stopping: unhandled rejection: reports could not be read',
    );
    expect(result.stdout).not.toContain('still running');
  });

  it('given an exception thrown from a timer, then the process logs it and exits 70', () => {
    const result = runFailing(`setTimeout(() => { throw new Error('boom'); }, 10);`);

    expect(result.status).toBe(70);
    expect(result.stderr.split('\n')[0]).toBe(
      'Hawser scheduler stopping: uncaught exception: boom',
    );
    expect(result.stdout).not.toContain('still running');
  });
});
