import { spawn } from 'node:child_process';

/**
 * Runs a node script that freezes at a fault-injection point after printing "inside" (crash
 * tests), SIGKILLs it there, and resolves with the signal that ended it. Rejects when the
 * script exits before freezing.
 */
export async function killWhenFrozen(
  script: string,
  args: readonly string[],
): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('inside')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the child exited (${code}) before freezing`)));
  });
  child.kill('SIGKILL');
  return exited;
}
