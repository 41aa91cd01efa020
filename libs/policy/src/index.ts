// Credentials and targets.
export * from './credentials.js';

// Rules and their defaults.
export type { RuleDefinition, RuleOperation } from './rules/rule-definition.js';
export { MANILA_RULES } from './rules/manila/manila-rules.js';
export { HAWSER_RULES } from './rules/hawser.rules.js';
export { POLICY_RULES } from './rules/policy-rules.js';

// Loading and enforcing.
export { PolicyEnforcer } from './enforcer/policy-enforcer.js';
export { PolicyFileError } from './enforcer/policy-file-error.js';
export { loadPolicy, type PolicyOptions } from './enforcer/load-policy.js';
export { PolicyHolder, type PolicyReload } from './enforcer/policy-holder.js';
export { policyNotAuthorizedMessage } from './enforcer/policy-not-authorized.js';

// The check language, for tools that read check strings.
export { parseCheck } from './check-language/check-parser.js';
export { CheckSyntaxError } from './check-language/check-syntax-error.js';
export type { CheckNode } from './check-language/check-tree.js';

// The generated reference.
export { policySample } from './sample/policy-sample.js';
