/** One API operation a rule guards, as Manila's policy reference lists it. */
export interface RuleOperation {
  readonly method: string;
  readonly path: string;
}

/** A policy rule with its defaults, as oslo.policy's RuleDefault describes one. */
export interface RuleDefinition {
  readonly name: string;
  /** The secure-RBAC default (Manila with enforce_new_defaults=True). */
  readonly check: string;
  /**
   * Manila's deprecated default for the rule (Zed with enforce_new_defaults=False). In legacy
   * mode a rule without an override is `check or legacyCheck`, as oslo.policy combines them.
   */
  readonly legacyCheck?: string;
  readonly description: string;
  readonly operations: readonly RuleOperation[];
}
