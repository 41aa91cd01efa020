/** Manila's PolicyNotAuthorized text, for the 403 a refused rule answers. */
export const policyNotAuthorizedMessage = (rule: string): string =>
  `Policy doesn't allow ${rule} to be performed.`;
