import type { ChainLink, ExpressionNode } from './expression-ast.js';
import { parseExpression } from './expression-parser.js';
import {
  add,
  callFunction,
  coerceOperand,
  compareOrder,
  divide,
  equals,
  ExpressionError,
  multiply,
  power,
  subtract,
  truthy,
  type PyValue,
} from './python-values.js';

/** Where `<dictionary>.<key>` variables come from; throw ExpressionError for an unknown key. */
export interface ExpressionScope {
  variable(dictionary: string, key: string): unknown;
}

type Evaluate = (scope: ExpressionScope) => PyValue;

/** One expression, parsed once and turned into closures (no eval, no Function). */
export interface CompiledExpression {
  readonly source: string;
  /** The variable dictionaries it reads (`capabilities`, `stats`, `share`, `extra`). */
  readonly dictionaries: ReadonlySet<string>;
  /** The syntax error, when the text does not parse: every evaluation then fails with it. */
  readonly syntaxError: ExpressionError | null;
  /** Throws ExpressionError where Manila's evaluator raises. */
  evaluate(scope: ExpressionScope): PyValue;
}

export const compileExpression = (source: string): CompiledExpression => {
  let node: ExpressionNode;
  try {
    node = parseExpression(source);
  } catch (error) {
    const syntaxError =
      error instanceof ExpressionError ? error : new ExpressionError(String(error));
    return {
      source,
      dictionaries: new Set(),
      syntaxError,
      evaluate: () => {
        throw syntaxError;
      },
    };
  }
  const dictionaries = new Set<string>();
  const evaluate = compileNode(node, dictionaries);
  return { source, dictionaries, syntaxError: null, evaluate };
};

const compileNode = (node: ExpressionNode, dictionaries: Set<string>): Evaluate => {
  switch (node.type) {
    case 'constant': {
      const value = constantValue(node.token, node.text);
      return () => value;
    }
    case 'variable': {
      const { dictionary, key } = node;
      dictionaries.add(dictionary);
      return (scope) => coerceOperand(scope.variable(dictionary, key));
    }
    case 'function': {
      const argument = compileNode(node.argument, dictionaries);
      const name = node.name;
      return (scope) => callFunction(name, argument(scope));
    }
    case 'power': {
      const base = compileNode(node.base, dictionaries);
      const exponent = compileNode(node.exponent, dictionaries);
      return (scope) => power(base(scope), exponent(scope));
    }
    case 'sign': {
      const operand = compileNode(node.operand, dictionaries);
      const sign = node.negative ? -1 : 1;
      return (scope) => multiply(sign, operand(scope));
    }
    case 'chain':
      return compileArithmetic(
        compileNode(node.first, dictionaries),
        compileLinks(node.rest, dictionaries),
      );
    case 'not': {
      const operand = compileNode(node.operand, dictionaries);
      return (scope) => !truthy(operand(scope));
    }
    case 'comparison':
      return compileComparison(
        compileNode(node.first, dictionaries),
        compileLinks(node.rest, dictionaries),
      );
    case 'ternary': {
      const condition = compileNode(node.condition, dictionaries);
      const whenTrue = compileNode(node.whenTrue, dictionaries);
      const whenFalse = compileNode(node.whenFalse, dictionaries);
      return (scope) => (truthy(condition(scope)) ? whenTrue(scope) : whenFalse(scope));
    }
    case 'and': {
      // Both sides are evaluated before `and`/`or` (EvalBoolAndOp), so errors on the right count.
      const left = compileNode(node.left, dictionaries);
      const right = compileNode(node.right, dictionaries);
      return (scope) => {
        const a = left(scope);
        const b = right(scope);
        return truthy(a) ? b : a;
      };
    }
    case 'or': {
      const left = compileNode(node.left, dictionaries);
      const right = compileNode(node.right, dictionaries);
      return (scope) => {
        const a = left(scope);
        const b = right(scope);
        return truthy(a) ? a : b;
      };
    }
    case 'list': {
      const head = compileNode(node.head, dictionaries);
      const tail = compileNode(node.tail, dictionaries);
      return (scope) => {
        const first = head(scope);
        const rest = tail(scope);
        return Array.isArray(rest) ? [first, ...rest] : [first, rest];
      };
    }
  }
};

/** Number tokens keep their type (`0.5` stays 0.5); quoted strings and plain words go through int()/float(). */
const constantValue = (token: 'integer' | 'real' | 'string' | 'word', text: string): PyValue => {
  if (token === 'integer') return Number(text);
  if (token === 'real') return Number(text);
  return coerceOperand(text);
};

interface CompiledLink {
  readonly operator: string;
  readonly operand: Evaluate;
}

const compileLinks = (links: readonly ChainLink[], dictionaries: Set<string>): CompiledLink[] =>
  links.map((link) => ({
    operator: link.operator,
    operand: compileNode(link.operand, dictionaries),
  }));

const ARITHMETIC: Readonly<Record<string, (a: PyValue, b: PyValue) => PyValue>> = {
  '+': add,
  '-': subtract,
  '*': multiply,
  '/': divide,
};

const compileArithmetic = (first: Evaluate, links: readonly CompiledLink[]): Evaluate => {
  const steps = links.map((link) => ({
    apply: ARITHMETIC[link.operator] as (a: PyValue, b: PyValue) => PyValue,
    operand: link.operand,
  }));
  return (scope) => {
    let value = first(scope);
    for (const step of steps) value = step.apply(value, step.operand(scope));
    return value;
  };
};

const COMPARE: Readonly<Record<string, (a: PyValue, b: PyValue) => boolean>> = {
  '==': equals,
  '!=': (a, b) => !equals(a, b),
  '<>': (a, b) => !equals(a, b),
  '<': (a, b) => compareOrder(a, b) < 0,
  '<=': (a, b) => compareOrder(a, b) <= 0,
  '>': (a, b) => compareOrder(a, b) > 0,
  '>=': (a, b) => compareOrder(a, b) >= 0,
};

/** `a < b < c`: stops at the first false link without evaluating the rest. */
const compileComparison = (first: Evaluate, links: readonly CompiledLink[]): Evaluate => {
  const steps = links.map((link) => ({
    test: COMPARE[link.operator] as (a: PyValue, b: PyValue) => boolean,
    operand: link.operand,
  }));
  return (scope) => {
    let left = first(scope);
    for (const step of steps) {
      const right = step.operand(scope);
      if (!step.test(left, right)) return false;
      left = right;
    }
    return true;
  };
};
