import { DriverError } from './driver-error.js';

/** The parts of a placement string `host@backend#pool`. */
export interface ShareHostParts {
  readonly host: string;
  /** `host@backend`. */
  readonly backend: string;
  readonly backendName: string;
  readonly pool: string;
}

export function parseShareHost(value: string): ShareHostParts {
  const match = /^([^@#]+)@([^@#]+)#([^@#]+)$/.exec(value);
  if (!match) {
    throw new DriverError({
      code: 'invalid_request',
      userMessage: 'The share has no valid placement.',
      detail: `expected host@backend#pool, got "${value}"`,
    });
  }
  const [, host, backendName, pool] = match as unknown as [string, string, string, string];
  return { host, backend: `${host}@${backendName}`, backendName, pool };
}

export function formatShareHost(backend: string, pool: string): string {
  return `${backend}#${pool}`;
}
