/**
 * A refusal with Manila's status and message, thrown by the use cases and the HTTP layer alike;
 * the API's exception filter answers it as Manila's fault body (or a GraphQL error).
 */
export class ManilaHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ManilaHttpError';
  }
}

export const badRequest = (message: string) => new ManilaHttpError(400, message);
/** Manila's InvalidInput, as its API answers it: a 400 with the reason after a fixed phrase. */
export const invalidInput = (reason: string) => badRequest(`Invalid input received: ${reason}`);
export const forbiddenError = (message: string) => new ManilaHttpError(403, message);
export const notFoundError = (message: string) => new ManilaHttpError(404, message);
/**
 * Manila's 404 for a metadata key a share or a snapshot does not hold: its v2 metadata API lets
 * the exception through, so the fault names its class first.
 */
export const metadataItemNotFound = () =>
  notFoundError('MetadataItemNotFound: Metadata item is not found.');
/** Manila's 404 for a metadata key an access rule does not hold (ShareAccessMetadataNotFound). */
export const accessRuleMetadataNotFound = () =>
  notFoundError('Share access rule metadata does not exist.');
