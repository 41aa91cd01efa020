import { PolicyFileError } from '#hawser/policy';
import { ConfigurationError, type HawserConfig } from '#hawser/platform';
import { policyHolderFor } from './policy.module.js';

/**
 * Refuses a policy that does not load before the process starts, with one line naming the file
 * and the rule. Checked ahead of Nest, which would log its own stack trace instead.
 */
export const refuseBadPolicy = (config: HawserConfig): void => {
  try {
    policyHolderFor(config);
  } catch (error) {
    if (!(error instanceof PolicyFileError)) throw error;
    throw new ConfigurationError(error.message);
  }
};
