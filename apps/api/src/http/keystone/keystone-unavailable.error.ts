/**
 * Keystone could not say whether a token is valid: unreachable, too slow, failing, or refusing
 * Hawser's own service credentials. The HTTP pipeline answers 503, never 401, because the
 * caller's token may well be good.
 */
export class KeystoneUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeystoneUnavailableError';
  }
}
