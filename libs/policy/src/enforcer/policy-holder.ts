import { loadPolicy, type PolicyOptions } from './load-policy.js';
import type { PolicyEnforcer } from './policy-enforcer.js';
import { PolicyFileError } from './policy-file-error.js';

export type PolicyReload =
  | { readonly ok: true; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly error: PolicyFileError };

/**
 * The policy in force, reloadable (on SIGHUP): a reload that fails leaves the previous policy
 * in force and reports why.
 */
export class PolicyHolder {
  private enforcer: PolicyEnforcer;

  /** Loads the policy now; throws PolicyFileError, so a bad file stops the start. */
  constructor(private readonly options: PolicyOptions) {
    this.enforcer = loadPolicy(options);
  }

  get current(): PolicyEnforcer {
    return this.enforcer;
  }

  /** Reads the file again; on error the previous policy stays in force. */
  reload(): PolicyReload {
    try {
      this.enforcer = loadPolicy(this.options);
      return { ok: true, warnings: this.enforcer.warnings };
    } catch (error) {
      if (error instanceof PolicyFileError) return { ok: false, error };
      throw error;
    }
  }
}
