/** A refusal from the API, with the words the API used. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The message of a Manila fault body (`{"badRequest": {"code": 400, "message": "..."}}`), of a
 * GraphQL error list, or a plain statement of the status when the body says nothing.
 */
export const errorMessageOf = (status: number, body: unknown): string => {
  if (isRecord(body)) {
    const errors = body.errors;
    if (Array.isArray(errors) && isRecord(errors[0]) && typeof errors[0].message === 'string') {
      return errors[0].message;
    }
    for (const fault of Object.values(body)) {
      if (isRecord(fault) && typeof fault.message === 'string') return fault.message;
    }
  }
  return `The request failed (HTTP ${status}).`;
};
