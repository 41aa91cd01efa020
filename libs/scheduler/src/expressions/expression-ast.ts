/** The tree of one parsed expression; each node mirrors one of Manila's Eval* classes. */
export type ExpressionNode =
  | {
      readonly type: 'constant';
      readonly token: 'integer' | 'real' | 'string' | 'word';
      readonly text: string;
    }
  | { readonly type: 'variable'; readonly dictionary: string; readonly key: string }
  | { readonly type: 'function'; readonly name: string; readonly argument: ExpressionNode }
  | { readonly type: 'power'; readonly base: ExpressionNode; readonly exponent: ExpressionNode }
  | { readonly type: 'sign'; readonly negative: boolean; readonly operand: ExpressionNode }
  | { readonly type: 'chain'; readonly first: ExpressionNode; readonly rest: readonly ChainLink[] }
  | { readonly type: 'not'; readonly operand: ExpressionNode }
  | {
      readonly type: 'comparison';
      readonly first: ExpressionNode;
      readonly rest: readonly ChainLink[];
    }
  | {
      readonly type: 'ternary';
      readonly condition: ExpressionNode;
      readonly whenTrue: ExpressionNode;
      readonly whenFalse: ExpressionNode;
    }
  | { readonly type: 'and' | 'or'; readonly left: ExpressionNode; readonly right: ExpressionNode }
  | { readonly type: 'list'; readonly head: ExpressionNode; readonly tail: ExpressionNode };

/** One `operator operand` step of a left-to-right chain (`a + b - c`, `a < b <= c`). */
export interface ChainLink {
  readonly operator: string;
  readonly operand: ExpressionNode;
}
