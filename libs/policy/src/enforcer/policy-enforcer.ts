import { evaluateCheck } from '../check-language/check-evaluator.js';
import type { CheckNode } from '../check-language/check-tree.js';
import type { Credentials, PolicyTarget } from '../credentials.js';
import type { RuleDefinition } from '../rules/rule-definition.js';

/** A loaded policy: every rule parsed, overrides applied, references checked. Immutable. */
export class PolicyEnforcer {
  constructor(
    private readonly definitions: readonly RuleDefinition[],
    private readonly checks: ReadonlyMap<string, CheckNode>,
    /** What the load accepted but an operator should hear about (rules the file adds). */
    readonly warnings: readonly string[],
  ) {}

  /**
   * Whether the caller may do what the rule guards on the target. An unknown rule name is a
   * programming error (the name comes from code, never from a request), so it throws.
   */
  authorize(rule: string, credentials: Credentials, target: PolicyTarget): boolean {
    const check = this.checks.get(rule);
    if (check === undefined) throw new Error(`No policy rule is named "${rule}"`);
    return evaluateCheck(check, { rules: this.checks, credentials, target });
  }

  /** Whether a rule of that name is defined (by default or by the policy file). */
  has(rule: string): boolean {
    return this.checks.has(rule);
  }

  /** The rule table with its defaults, for references and route tables. */
  rules(): readonly RuleDefinition[] {
    return this.definitions;
  }
}
