import { PolicyFileError } from '#hawser/policy';
import type { HawserConfig } from '#hawser/platform';
import { policyHolderFor } from './policy.module.js';

/**
 * Stops the process before it starts on a policy that does not load, with one line naming the
 * file and the rule. Checked ahead of Nest, which would log its own stack trace instead.
 */
export const refuseBadPolicy = (config: HawserConfig): void => {
  try {
    policyHolderFor(config);
  } catch (error) {
    if (!(error instanceof PolicyFileError)) throw error;
    console.error(`Hawser not started: ${error.message}`);
    process.exit(1);
  }
};
