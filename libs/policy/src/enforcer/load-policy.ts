import { parseCheck } from '../check-language/check-parser.js';
import { CheckSyntaxError } from '../check-language/check-syntax-error.js';
import type { CheckNode } from '../check-language/check-tree.js';
import { POLICY_RULES } from '../rules/policy-rules.js';
import type { RuleDefinition } from '../rules/rule-definition.js';
import { PolicyEnforcer } from './policy-enforcer.js';
import { PolicyFileError } from './policy-file-error.js';
import { readPolicyFile } from './policy-file.js';
import { verifyRuleReferences } from './rule-references.js';

export interface PolicyOptions {
  /** A Manila-format policy.yaml whose rules replace the defaults; none or '': defaults only. */
  readonly file?: string;
  /** true: the secure-RBAC defaults; false: Zed's legacy `check or legacyCheck`. */
  readonly enforceNewDefaults: boolean;
  /** The rule table; Hawser's full table (POLICY_RULES) unless given. */
  readonly rules?: readonly RuleDefinition[];
}

/**
 * Builds the policy in force: each rule's default for the mode, replaced by the file's check
 * string where the file names the rule. Throws PolicyFileError for anything malformed, so a bad
 * file never half-applies.
 */
export const loadPolicy = (options: PolicyOptions): PolicyEnforcer => {
  const { enforceNewDefaults } = options;
  // An empty setting (HAWSER_POLICY_FILE=) reads as unset.
  const file = options.file === '' ? undefined : options.file;
  const definitions = options.rules ?? POLICY_RULES;
  const overrides = file === undefined ? new Map<string, string>() : readPolicyFile(file);
  const checks = new Map<string, CheckNode>();
  const overridden = new Set<string>();
  for (const definition of definitions) {
    if (checks.has(definition.name)) {
      throw new PolicyFileError(undefined, definition.name, 'is defined twice');
    }
    const override = overrides.get(definition.name);
    if (override !== undefined) overridden.add(definition.name);
    checks.set(
      definition.name,
      override === undefined
        ? defaultCheck(definition, enforceNewDefaults)
        : parseRule(file, definition.name, override),
    );
  }
  const warnings: string[] = [];
  for (const [name, check] of overrides) {
    if (checks.has(name)) continue;
    // oslo.policy keeps such rules: other rules may refer to them with `rule:`.
    checks.set(name, parseRule(file, name, check));
    overridden.add(name);
    warnings.push(
      `Policy file ${file}, rule "${name}": no such rule is defined; ` +
        'it is kept for rule: references only',
    );
  }
  verifyRuleReferences(checks, (rule) => (overridden.has(rule) ? file : undefined));
  return new PolicyEnforcer(definitions, checks, warnings);
};

/** oslo.policy's legacy mode: the new default or the deprecated one, when they differ. */
const defaultCheck = (definition: RuleDefinition, enforceNewDefaults: boolean): CheckNode => {
  const check = parseRule(undefined, definition.name, definition.check);
  const { legacyCheck } = definition;
  if (enforceNewDefaults || legacyCheck === undefined || legacyCheck === definition.check) {
    return check;
  }
  return { kind: 'or', operands: [check, parseRule(undefined, definition.name, legacyCheck)] };
};

const parseRule = (file: string | undefined, rule: string, text: string): CheckNode => {
  try {
    return parseCheck(text);
  } catch (error) {
    if (error instanceof CheckSyntaxError) {
      throw new PolicyFileError(file, rule, `cannot parse "${quoted(text)}": ${error.message}`);
    }
    throw error;
  }
};

/** A check as the error quotes it: a long one cut, so that the refusal stays one short line. */
const QUOTED_CHARACTERS = 120;
const quoted = (text: string): string =>
  text.length > QUOTED_CHARACTERS ? `${text.slice(0, QUOTED_CHARACTERS)}...` : text;
