import { HAWSER_RULES } from './hawser.rules.js';
import { MANILA_RULES } from './manila/manila-rules.js';
import type { RuleDefinition } from './rule-definition.js';

/** Every rule Hawser enforces: Manila's, then Hawser's own. */
export const POLICY_RULES: readonly RuleDefinition[] = [...MANILA_RULES, ...HAWSER_RULES];
