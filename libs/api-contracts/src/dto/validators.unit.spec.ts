import { ManilaHttpError } from '../errors/manila-error.js';
import { strictBoolean, toBoolean } from './validators.js';

describe("oslo's strict bool_from_string, as Manila reads a flag", () => {
  it.each([
    [true, true],
    [false, false],
    ['YES', true],
    [' on ', true],
    ['f', false],
    [1, true],
    [0, false],
  ])('given %j, when read, then it is %j', (value, read) => {
    expect(toBoolean(value)).toBe(read);
    expect(strictBoolean(value)).toBe(read);
  });

  it.each([
    [null, 'None'],
    ['maybe', 'maybe'],
    [2, '2'],
    ['', ''],
    [[], '[]'],
    [{}, '{}'],
  ])('given %j, when read strictly, then it is refused naming %s', (value, printed) => {
    expect(toBoolean(value)).toBeUndefined();
    let refusal: unknown;
    try {
      strictBoolean(value);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ManilaHttpError);
    expect(refusal).toMatchObject({
      status: 400,
      message:
        `Unrecognized value '${printed}', acceptable values are: ` +
        "'0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'",
    });
  });
});
