import { ALWAYS, MAX_CHECK_NESTING, type CheckNode } from './check-tree.js';
import { CheckSyntaxError } from './check-syntax-error.js';
import { tokenizeCheck, type CheckToken } from './check-tokens.js';
import { parseBaseCheck } from './base-check.js';

/**
 * Parses a check string into its tree, once, with oslo.policy's grammar and precedence: `not`
 * binds tightest, then `and`, then `or`; parentheses group. The empty string allows everything
 * (as oslo). Where oslo logs and fails closed on a string it cannot read, this throws
 * CheckSyntaxError so that the mistake is refused when the policy loads.
 */
export const parseCheck = (text: string): CheckNode => {
  if (text === '') return ALWAYS;
  const tokens = tokenizeCheck(text);
  if (tokens.length === 0) throw new CheckSyntaxError('the check is blank');
  const parser = new CheckParser(tokens);
  const tree = parser.orExpression();
  parser.expectEnd();
  return tree;
};

class CheckParser {
  private next = 0;
  /** The parentheses and `not`s open around the token being read. */
  private depth = 0;

  constructor(private readonly tokens: readonly CheckToken[]) {}

  orExpression(): CheckNode {
    const operands = [this.andExpression()];
    while (this.peek()?.type === 'or') {
      this.next++;
      operands.push(this.andExpression());
    }
    return operands.length === 1 ? operands[0]! : { kind: 'or', operands };
  }

  expectEnd(): void {
    const token = this.peek();
    if (token) throw new CheckSyntaxError(`unexpected ${describe(token)}`);
  }

  private andExpression(): CheckNode {
    const operands = [this.unary()];
    while (this.peek()?.type === 'and') {
      this.next++;
      operands.push(this.unary());
    }
    return operands.length === 1 ? operands[0]! : { kind: 'and', operands };
  }

  private unary(): CheckNode {
    const token = this.tokens[this.next++];
    if (!token) throw new CheckSyntaxError(`a check is missing at the end`);
    switch (token.type) {
      case 'not':
        return { kind: 'not', operand: this.nested(() => this.unary()) };
      case '(': {
        const inner = this.nested(() => this.orExpression());
        const closing = this.tokens[this.next++];
        if (closing?.type !== ')') {
          throw new CheckSyntaxError(
            closing ? `expected ')' but found ${describe(closing)}` : `a ')' is missing`,
          );
        }
        return inner;
      }
      case 'check':
        return parseBaseCheck(token.text);
      default:
        throw new CheckSyntaxError(`expected a check but found ${describe(token)}`);
    }
  }

  /** Parses within one more level, refused past the bound before the stack runs out. */
  private nested(parse: () => CheckNode): CheckNode {
    this.depth += 1;
    if (this.depth > MAX_CHECK_NESTING) {
      throw new CheckSyntaxError(
        `the check nests deeper than ${MAX_CHECK_NESTING} levels of parentheses and not`,
      );
    }
    const node = parse();
    this.depth -= 1;
    return node;
  }

  private peek(): CheckToken | undefined {
    return this.tokens[this.next];
  }
}

const describe = (token: CheckToken): string =>
  token.type === 'check' ? `"${token.text}"` : `'${token.type}'`;
