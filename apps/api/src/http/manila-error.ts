/** An HTTP error with Manila's fault body: `{"<faultName>": {"code": N, "message": "..."}}`. */
export class ManilaHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ManilaHttpError';
  }
}

const FAULT_NAMES: Readonly<Record<number, string>> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'itemNotFound',
  405: 'badMethod',
  409: 'conflictingRequest',
  413: 'overLimit',
  415: 'badMediaType',
  501: 'notImplemented',
  503: 'serviceUnavailable',
};

export const faultBody = (status: number, message: string): Record<string, unknown> => {
  const fault: Record<string, unknown> = { code: status, message };
  if (status === 413) fault.retryAfter = '0';
  return { [FAULT_NAMES[status] ?? 'computeFault']: fault };
};

export const badRequest = (message: string) => new ManilaHttpError(400, message);
export const forbiddenError = (message: string) => new ManilaHttpError(403, message);
export const notFoundError = (message: string) => new ManilaHttpError(404, message);
