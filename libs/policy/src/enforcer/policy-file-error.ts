/**
 * A policy that cannot be loaded: an unreadable or malformed policy file, a check string that
 * does not parse, a `rule:` that names no rule or a loop of `rule:` references. The message
 * names the file and, where it applies, the rule.
 */
export class PolicyFileError extends Error {
  override readonly name = 'PolicyFileError';

  constructor(
    /** The policy file, or undefined when the defaults alone are at fault. */
    readonly file: string | undefined,
    /** The rule at fault, when one is. */
    readonly rule: string | undefined,
    /** What is wrong, without the file and rule. */
    readonly problem: string,
  ) {
    super(
      `${file === undefined ? 'Default policy' : `Policy file ${file}`}` +
        `${rule === undefined ? '' : `, rule "${rule}"`}: ${problem}`,
    );
  }
}
