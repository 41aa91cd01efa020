import { pythonText } from '#hawser/api-contracts';
import { badRequest } from './manila-error.js';
import { isJsonObject } from './validate-body.js';

export interface ActionRequest {
  /** The key as sent. */
  readonly name: string;
  readonly argument: unknown;
}

/** The one action of a `POST …/action` body, else Manila's 400. */
export const actionOf = (body: unknown): ActionRequest => {
  if (!isJsonObject(body) || Object.keys(body).length !== 1) {
    throw badRequest('Malformed request body: exactly one action is expected.');
  }
  const [name, argument] = Object.entries(body)[0] as [string, unknown];
  return { name, argument };
};

/**
 * The `status` of a reset_status action, as Manila's `validate_update` reads it: without one,
 * "Must specify 'status'"; a value that is not text is no state, and the decision refuses it
 * with the valid ones, as Manila does.
 */
export const statusArgument = (argument: unknown): string => {
  if (!isJsonObject(argument) || !Object.hasOwn(argument, 'status')) {
    throw badRequest("Must specify 'status'");
  }
  const { status } = argument;
  return typeof status === 'string' ? status : pythonText(status);
};
