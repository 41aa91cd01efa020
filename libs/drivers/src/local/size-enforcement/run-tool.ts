import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DriverError } from '../../contract/driver-error.js';

const execFileAsync = promisify(execFile);

/** Why a tool run failed: its stderr, or the spawn error (ENOENT when not installed). */
export class ToolFailure extends Error {
  constructor(
    readonly command: string,
    readonly stderr: string,
    readonly missing: boolean,
  ) {
    super(`${command}: ${stderr}`);
  }
}

/** Runs a tool without a shell; resolves with its stdout, rejects with a ToolFailure. */
export async function runTool(file: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync(file, [...args], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    throw new ToolFailure(
      [file, ...args].join(' '),
      failure.stderr?.trim() || failure.message,
      failure.code === 'ENOENT',
    );
  }
}

/** As runTool, failing with a DriverError whose user message says what could not be done. */
export async function runStorageTool(
  file: string,
  args: readonly string[],
  userMessage: string,
): Promise<string> {
  try {
    return await runTool(file, args);
  } catch (error) {
    throw new DriverError({
      code: 'backend_error',
      userMessage,
      detail: error instanceof ToolFailure ? error.message : String(error),
    });
  }
}
