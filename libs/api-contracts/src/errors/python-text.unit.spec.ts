import { pythonInt, pythonText } from './python-text.js';

describe("Python's str() and int() of JSON values, as Manila's messages and casts have them", () => {
  it.each([
    [null, 'None'],
    [true, 'True'],
    [false, 'False'],
    [5, '5'],
    ['maybe', 'maybe'],
    [['a', 1, null], "['a', 1, None]"],
    [{ a: 'b', c: [true] }, "{'a': 'b', 'c': [True]}"],
  ])('given %j, when printed, then it reads %s', (value, printed) => {
    expect(pythonText(value)).toBe(printed);
  });

  it.each([
    [2, 2],
    [1.9, 1],
    [-1.5, -1],
    [true, 1],
    [false, 0],
    [' 7 ', 7],
    ['-3', -3],
    ['+4', 4],
    ['1_000', 1000],
  ])('given %j, when cast, then it is %d', (value, cast) => {
    expect(pythonInt(value)).toBe(cast);
  });

  it.each([[null], ['1.5'], ['x'], [''], ['1__0'], ['_1'], [[1]], [{}]])(
    'given %j, when cast, then int() would raise',
    (value) => {
      expect(pythonInt(value)).toBeUndefined();
    },
  );
});
