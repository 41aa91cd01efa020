import type { ChainLink, ExpressionNode } from './expression-ast.js';
import { tokenize, type Token } from './expression-tokens.js';
import { ExpressionError } from './python-values.js';

/** `capabilities.free_capacity_gb`: the only words Manila looks up (no digits allowed). */
const VARIABLE = /^[a-zA-Z_]+\.[a-zA-Z_]+$/;
const COMPARISONS = new Set(['<', '<=', '>', '>=', '==', '!=', '<>']);
const AND_WORDS = new Set(['and', 'AND', '&&']);
const OR_WORDS = new Set(['or', 'OR', '||']);
const NOT_WORDS = new Set(['not', 'NOT', '!']);

/**
 * A recursive-descent parser for Manila's filter/goodness function grammar (pyparsing
 * infixNotation in manila/scheduler/evaluator), precedence from loosest to tightest:
 * `,` > or > and > `?:` > comparisons > not > `+ -` > `* /` > unary sign > `^` > function > operand.
 *
 * It keeps pyparsing's quirks because they change results: `a and b and c` evaluates only
 * `a and b` (likewise `or` and chained ternaries), and a word directly followed by an operand
 * is a function call, so `capabilities.a and capabilities.b` calls a function named
 * `capabilities.a` and fails.
 */
export const parseExpression = (source: string): ExpressionNode =>
  new Parser(tokenize(source)).parseAll();

class Parser {
  private index = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parseAll(): ExpressionNode {
    const node = this.parseList();
    const extra = this.peek();
    if (extra) throw this.error(extra);
    return node;
  }

  private parseList(): ExpressionNode {
    const head = this.parseOr();
    if (!this.acceptOperator(',')) return head;
    return { type: 'list', head, tail: this.parseList() };
  }

  private parseOr(): ExpressionNode {
    return this.parseBooleanChain('or', OR_WORDS, () => this.parseAnd());
  }

  private parseAnd(): ExpressionNode {
    return this.parseBooleanChain('and', AND_WORDS, () => this.parseTernary());
  }

  /** pyparsing groups `a op b op c` but Manila's node reads only the first two operands. */
  private parseBooleanChain(
    type: 'and' | 'or',
    words: ReadonlySet<string>,
    operand: () => ExpressionNode,
  ): ExpressionNode {
    const left = operand();
    if (!this.acceptWord(words)) return left;
    const right = operand();
    while (this.acceptWord(words)) operand();
    return { type, left, right };
  }

  /** Only the first `c ? x : y` of a chain counts, as in EvalTernaryOp. */
  private parseTernary(): ExpressionNode {
    const condition = this.parseComparison();
    if (!this.acceptOperator('?')) return condition;
    const whenTrue = this.parseComparison();
    this.expectOperator(':');
    const whenFalse = this.parseComparison();
    while (this.acceptOperator('?')) {
      this.parseComparison();
      this.expectOperator(':');
      this.parseComparison();
    }
    return { type: 'ternary', condition, whenTrue, whenFalse };
  }

  private parseComparison(): ExpressionNode {
    const first = this.parseNot();
    const rest = this.parseLinks(COMPARISONS, () => this.parseNot());
    return rest.length === 0 ? first : { type: 'comparison', first, rest };
  }

  private parseNot(): ExpressionNode {
    if (this.acceptWord(NOT_WORDS)) return { type: 'not', operand: this.parseNot() };
    return this.parseSum();
  }

  private parseSum(): ExpressionNode {
    const first = this.parseProduct();
    const rest = this.parseLinks(new Set(['+', '-']), () => this.parseProduct());
    return rest.length === 0 ? first : { type: 'chain', first, rest };
  }

  private parseProduct(): ExpressionNode {
    const first = this.parseSign();
    const rest = this.parseLinks(new Set(['*', '/']), () => this.parseSign());
    return rest.length === 0 ? first : { type: 'chain', first, rest };
  }

  private parseSign(): ExpressionNode {
    const token = this.peek();
    if (token?.kind === 'operator' && (token.text === '+' || token.text === '-')) {
      this.index++;
      return { type: 'sign', negative: token.text === '-', operand: this.parseSign() };
    }
    return this.parsePower();
  }

  private parsePower(): ExpressionNode {
    const base = this.parseFunction();
    if (!this.acceptOperator('^')) return base;
    return { type: 'power', base, exponent: this.parsePower() };
  }

  private parseFunction(): ExpressionNode {
    const token = this.peek();
    const next = this.tokens[this.index + 1];
    if (token?.kind === 'word' && next && startsOperand(next)) {
      this.index++;
      return { type: 'function', name: token.text, argument: this.parseFunction() };
    }
    return this.parseOperand();
  }

  private parseOperand(): ExpressionNode {
    const token = this.peek();
    if (!token) throw new ExpressionError('ParseException: unexpected end of expression');
    if (token.kind === 'operator') {
      if (token.text !== '(') throw this.error(token);
      this.index++;
      const inner = this.parseList();
      this.expectOperator(')');
      return inner;
    }
    this.index++;
    if (token.kind === 'word' && VARIABLE.test(token.text)) {
      const [dictionary, key] = token.text.split('.') as [string, string];
      return { type: 'variable', dictionary, key };
    }
    return { type: 'constant', token: token.kind, text: token.text };
  }

  private parseLinks(operators: ReadonlySet<string>, operand: () => ExpressionNode): ChainLink[] {
    const links: ChainLink[] = [];
    for (;;) {
      const token = this.peek();
      if (token?.kind !== 'operator' || !operators.has(token.text)) return links;
      this.index++;
      links.push({ operator: token.text, operand: operand() });
    }
  }

  private acceptOperator(text: string): boolean {
    const token = this.peek();
    if (token?.kind !== 'operator' || token.text !== text) return false;
    this.index++;
    return true;
  }

  private acceptWord(words: ReadonlySet<string>): boolean {
    const token = this.peek();
    if (!token || !words.has(token.text) || (token.kind !== 'word' && token.kind !== 'operator'))
      return false;
    this.index++;
    return true;
  }

  private expectOperator(text: string): void {
    if (this.acceptOperator(text)) return;
    const token = this.peek();
    throw token ? this.error(token) : new ExpressionError(`ParseException: expected '${text}'`);
  }

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private error(token: Token): ExpressionError {
    return new ExpressionError(`ParseException: unexpected '${token.text}' at ${token.position}`);
  }
}

const startsOperand = (token: Token): boolean => token.kind !== 'operator' || token.text === '(';
