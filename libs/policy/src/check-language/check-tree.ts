/**
 * A parsed check string: oslo.policy's check tree for the subset of its language Hawser reads.
 * `match` strings keep their `%(field)s` placeholders; they are substituted from the target
 * each time the check runs.
 */
export type CheckNode =
  | { readonly kind: 'always' }
  | { readonly kind: 'never' }
  | { readonly kind: 'rule'; readonly rule: string }
  | { readonly kind: 'role'; readonly match: string }
  /** `field:match`: a credential field (a dotted path) compared with the substituted match. */
  | { readonly kind: 'credential'; readonly path: readonly string[]; readonly match: string }
  /** `'literal':match` / `True:match`: a constant compared with the substituted match. */
  | { readonly kind: 'literal'; readonly value: string; readonly match: string }
  | { readonly kind: 'not'; readonly operand: CheckNode }
  | { readonly kind: 'and'; readonly operands: readonly CheckNode[] }
  | { readonly kind: 'or'; readonly operands: readonly CheckNode[] };

export const ALWAYS: CheckNode = { kind: 'always' };

/**
 * How deep a check may nest, counting each `not`, `and`, `or` and parenthesis, and through a
 * `rule:` the check of the rule it names. Manila's rules nest a few levels; the bound keeps
 * parsing and checking within the stack, where a file nesting thousands of levels deep would
 * overflow it (oslo.policy, recursing in Python, fails such a check at request time).
 */
export const MAX_CHECK_NESTING = 64;

/** The deepest a check nests within its own string (see MAX_CHECK_NESTING). */
export const nestingOf = (node: CheckNode): number => {
  switch (node.kind) {
    case 'not':
      return 1 + nestingOf(node.operand);
    case 'and':
    case 'or':
      // Not Math.max(...): a check may hold more operands than a call takes arguments.
      return (
        1 + node.operands.reduce((deepest, operand) => Math.max(deepest, nestingOf(operand)), 0)
      );
    default:
      return 0;
  }
};

/** The `rule:` references of a check in order of appearance, each with how deep it sits. */
export const referencesWithNesting = (node: CheckNode, depth = 0): [string, number][] => {
  switch (node.kind) {
    case 'rule':
      return [[node.rule, depth]];
    case 'not':
      return referencesWithNesting(node.operand, depth + 1);
    case 'and':
    case 'or':
      return node.operands.flatMap((operand) => referencesWithNesting(operand, depth + 1));
    default:
      return [];
  }
};

/** The rules a check refers to with `rule:`, in order of appearance. */
export const referencedRules = (node: CheckNode): string[] =>
  referencesWithNesting(node).map(([rule]) => rule);
