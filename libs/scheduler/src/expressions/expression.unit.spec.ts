import { compileExpression, type ExpressionScope } from './expression-compiler.js';
import { ExpressionCache } from './expression-cache.js';
import { ExpressionError, type PyValue } from './python-values.js';

const dictionaries: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  capabilities: {
    utilization: 69.9,
    total_capacity_gb: 100.0,
    name: 'abc',
    flag: true,
    none: null,
    lst: [1, 2],
    num: '42.7',
  },
  stats: { free_capacity_gb: 50.5 },
  share: { size: 10, share_proto: 'NFS' },
  extra: {},
};

const scope: ExpressionScope = {
  variable(dictionary, key) {
    const values = dictionaries[dictionary];
    if (!values || !(key in values)) throw new ExpressionError(`KeyError: '${key}'`);
    return values[key];
  },
};

const evaluate = (source: string): PyValue => compileExpression(source).evaluate(scope);

// Expected values were produced by Manila 15.1's evaluator (manila.scheduler.evaluator) on the
// same variables: these are its answers, quirks included.
describe('filter/goodness function expressions', () => {
  it.each<[string, PyValue]>([
    ['capabilities.utilization < 70', true],
    ['100 - capabilities.utilization', 31],
    ['1 and 0 and 5', 0],
    ['1 and 2 and 3', 2],
    ['0 or 0 or 5', 0],
    ['0 or 7 or 5', 7],
    ['1 ? 2 : 3', 2],
    ['0 ? 2 : 1 ? 4 : 5', 1],
    ['1 < 2 < 3', true],
    ['3 > 2 > 2', false],
    ['not 1 < 2', true],
    ['!0', true],
    ['not 0 + 1', false],
    ['-2 ^ 2', -4],
    ['2 ^ 3 ^ 2', 512],
    ['7 / 2', 3.5],
    ['max(1, 5, 3)', 5],
    ['min(4,2)', 2],
    ['abs(-3)', 3],
    ['abs(0 - 3)', 3],
    ['capabilities.name == "abc"', true],
    ["capabilities.name == 'abc'", true],
    ['capabilities.flag + 1', 2],
    ['capabilities.num', 42.7],
    ['share.size * 2', 20],
    ['stats.free_capacity_gb', 50],
    ['foo', 'foo'],
    ['capabilities.total_capacity_gb > 50 and capabilities.utilization < 70', true],
    ['capabilities.total_capacity_gb > 50 AND capabilities.utilization < 70', true],
    ['capabilities.total_capacity_gb > 50 && capabilities.utilization < 70', true],
    ['1 <> 2', true],
    ['1 != 1', false],
    ['"a" < "b"', true],
    ['1.5 + 2.25', 3.75],
    ['2 * -3', -6],
    ['- - 3', 3],
    ['(1 + 2) * 3', 9],
    ['1,2', [1, 2]],
    ['1 == 1.0', true],
    ['"1" == 1', false],
    ['max(capabilities.utilization, 10)', 69],
    ['NOT 1', false],
    ['10 - 5 - 2', 3],
    ['1 || 0', 1],
  ])('%s gives what Manila gives', (source, expected) => {
    expect(evaluate(source)).toEqual(expected);
  });

  it.each([
    ['7 / 0', 'division by zero'],
    ['capabilities.none', 'None is not a number'],
    ['capabilities.none + 1', 'None is not a number'],
    ['capabilities.lst', 'a list is not a number'],
    ['capabilities.missing', 'unknown capability'],
    ['capabilities.ipv4_support', 'digits make it no variable, so the parse fails'],
    ['foo(1)', 'unknown function'],
    [
      'capabilities.utilization and capabilities.total_capacity_gb',
      'a word before an operand is a function call',
    ],
    ['"a" < 1', 'ordering a string and a number'],
    ['2 ^ -1', 'a sign cannot follow ^'],
    ['1 +', 'incomplete'],
    ['max(5)', 'max of a single number'],
  ])('%s fails as in Manila (%s)', (source) => {
    expect(() => evaluate(source)).toThrow(ExpressionError);
  });

  it('reports the dictionaries an expression reads', () => {
    expect(
      [...compileExpression('capabilities.a < 1 or stats.b > share.size').dictionaries].sort(),
    ).toEqual(['capabilities', 'share', 'stats']);
  });

  it('keeps a syntax error and raises it on every evaluation', () => {
    const broken = compileExpression('1 +');
    expect(broken.syntaxError).toBeInstanceOf(ExpressionError);
    expect(() => broken.evaluate(scope)).toThrow(ExpressionError);
  });

  it('evaluates both sides of and/or, so an error on the right counts even after a false left side', () => {
    expect(() => evaluate('0 and capabilities.missing')).toThrow(ExpressionError);
  });

  it('stops a comparison chain at the first false link', () => {
    expect(evaluate('2 < 1 < capabilities.missing')).toBe(false);
  });

  it('applies Python string rules: concatenation and repetition', () => {
    expect(evaluate("'ab' + 'cd'")).toBe('abcd');
    expect(evaluate("'ab' * 2")).toBe('abab');
    expect(evaluate("- 'ab'")).toBe('');
  });

  it('divides by a numeric string, as float() allows', () => {
    expect(evaluate("6 / '3'")).toBe(2);
  });

  describe('given an expression cache', () => {
    it('parses each distinct text once', () => {
      const cache = new ExpressionCache();
      const first = cache.get('capabilities.utilization < 70');
      expect(cache.get('capabilities.utilization < 70')).toBe(first);
      cache.get('1 + 1');
      expect(cache.size).toBe(2);
    });

    it('stays bounded under a flood of distinct texts', () => {
      const cache = new ExpressionCache(3);
      for (let i = 0; i < 10; i++) cache.get(`${i} + 1`);
      expect(cache.size).toBeLessThanOrEqual(3);
    });
  });
});
