import { allTenantsParam, booleanParam, holdsEveryPair, parseDictFilter } from './list-params.js';

describe('boolean query parameters', () => {
  it.each([
    [undefined, false],
    ['true', true],
    ['Yes', true],
    ['1', true],
    ['false', false],
    ['off', false],
  ])('%s reads as %s', (value, expected) => {
    expect(booleanParam('with_count', value)).toBe(expected);
  });

  it('answers another word with a Manila 400 naming the parameter', () => {
    expect(() => booleanParam('with_count', 'maybe')).toThrow(
      'Invalid value maybe for with_count. Expecting a boolean.',
    );
  });

  it('takes an empty all_tenants as yes, as Manila does', () => {
    expect(allTenantsParam('')).toBe(true);
    expect(allTenantsParam(undefined)).toBe(false);
    expect(allTenantsParam('0')).toBe(false);
    expect(() => allTenantsParam('everyone')).toThrow(/Expecting a boolean/);
  });
});

describe('dict query parameters', () => {
  it('reads Python-literal dicts, values as text', () => {
    expect(parseDictFilter('metadata', "{'team': 'a', 'n': 1}")).toEqual({ team: 'a', n: '1' });
  });

  it.each(['notadict', "['a']", '{'])('answers %s with a 400', (text) => {
    expect(() => parseDictFilter('extra_specs', text)).toThrow(
      `Invalid extra_specs filter: ${text}`,
    );
  });
});

describe('metadata filters', () => {
  it('match a resource holding every wanted key with the wanted value', () => {
    const metadata = { team: 'blue', 'a-b.c': 'x' };
    expect(holdsEveryPair(metadata, { team: 'blue', 'a-b.c': 'x' })).toBe(true);
    expect(holdsEveryPair(metadata, { team: 'red' })).toBe(false);
    expect(holdsEveryPair(metadata, {})).toBe(true);
  });

  it.each(['__proto__', 'constructor', 'toString', 'valueOf'])(
    'count %j only where the resource holds it',
    (key) => {
      const wanted = parseDictFilter('metadata', `{'${key}': 'x'}`);
      expect(holdsEveryPair({ team: 'blue' }, wanted)).toBe(false);
      expect(holdsEveryPair(JSON.parse(`{"${key}": "x"}`), wanted)).toBe(true);
    },
  );
});
