import { ownValue, withChanges } from './string-map.js';

const MEMBER_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
/** A map as JSON.parse gives it: `__proto__` is an own key there. */
const parsed = (key: string, value: string): Record<string, string> =>
  JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`);

describe('user maps: keys named like object members are ordinary keys', () => {
  it.each(MEMBER_KEYS)('given a map without %j, ownValue finds nothing', (key) => {
    expect(ownValue({ team: 'blue' }, key)).toBeUndefined();
  });

  it.each(MEMBER_KEYS)('given a map holding %j, ownValue finds its value', (key) => {
    expect(ownValue(parsed(key, 'x'), key)).toBe('x');
  });

  it.each(MEMBER_KEYS)('withChanges sets %j as an own key and removes it again', (key) => {
    const set = withChanges({ team: 'blue' }, parsed(key, 'x'));
    expect(Object.entries(set)).toEqual([
      ['team', 'blue'],
      [key, 'x'],
    ]);
    expect(Object.getPrototypeOf(set)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(set))).toEqual(set);

    const unset = withChanges(set, {}, [key]);
    expect(Object.entries(unset)).toEqual([['team', 'blue']]);
  });

  it('withChanges writes the set keys over the current ones and leaves its inputs alone', () => {
    const current = { a: '1', b: '2' };
    expect(withChanges(current, { b: '3', c: '4' }, ['a'])).toEqual({ b: '3', c: '4' });
    expect(current).toEqual({ a: '1', b: '2' });
  });
});
