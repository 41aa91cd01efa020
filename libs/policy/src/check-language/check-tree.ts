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

/** The rules a check refers to with `rule:`, in order of appearance. */
export const referencedRules = (node: CheckNode): string[] => {
  switch (node.kind) {
    case 'rule':
      return [node.rule];
    case 'not':
      return referencedRules(node.operand);
    case 'and':
    case 'or':
      return node.operands.flatMap(referencedRules);
    default:
      return [];
  }
};
