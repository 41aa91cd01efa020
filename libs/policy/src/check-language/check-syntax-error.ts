/** A check string that is not in the policy language; the caller adds the file and rule. */
export class CheckSyntaxError extends Error {
  override readonly name = 'CheckSyntaxError';
}
