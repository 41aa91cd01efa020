// The refusals are the use cases' too (libs/application throws them); HTTP adds the fault body.
export {
  badRequest,
  forbiddenError,
  ManilaHttpError,
  metadataItemNotFound,
  notFoundError,
} from '#hawser/api-contracts';

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
