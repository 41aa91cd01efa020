import {
  limitedWindow,
  MAX_LIMIT,
  pageOf,
  paginationParams,
  validatedPagination,
} from './page-params.js';

const items = ['a', 'b', 'c', 'd', 'e'];

describe('a page by limit and offset', () => {
  it.each([
    [{}, ['a', 'b', 'c', 'd', 'e'], false],
    [{ limit: '2' }, ['a', 'b'], true],
    [{ limit: '2', offset: '2' }, ['c', 'd'], true],
    [{ limit: '2', offset: '3' }, ['d', 'e'], false],
    [{ limit: '5' }, ['a', 'b', 'c', 'd', 'e'], false],
    [{ offset: '4' }, ['e'], false],
    [{ offset: '9' }, [], false],
    [{ limit: '0' }, ['a', 'b', 'c', 'd', 'e'], false],
  ])('%j gives %j (more: %s)', (query, page, more) => {
    expect(pageOf(items, query)).toEqual({ page, more });
  });

  it('serves at most osapi_max_limit items when a limit is given', () => {
    const many = Array.from({ length: MAX_LIMIT + 5 }, (_, i) => i);
    expect(pageOf(many, { limit: '5000' })).toMatchObject({ more: true });
    expect(pageOf(many, { limit: '5000' }).page).toHaveLength(MAX_LIMIT);
    expect(pageOf(many, {}).page).toHaveLength(MAX_LIMIT + 5);
  });

  it.each([
    [{ limit: 'ten' }, 'limit param must be an integer'],
    [{ limit: '-1', offset: 'x' }, 'limit param must be positive'],
    [{ offset: '1.5' }, 'offset must be an integer'],
    [{ offset: '-1' }, 'offset must be >= 0'],
    [{ offset: '2147483648' }, 'offset must be <= 2147483647'],
  ])("refuses %j in the words of Manila's get_pagination_params: %s", (query, message) => {
    expect(() => pageOf(items, query)).toThrow(expect.objectContaining({ status: 400, message }));
  });

  it('reads both as Python reads an integer', () => {
    expect(paginationParams({ limit: ' 2 ', offset: '+1' })).toEqual({ limit: 2, offset: 1 });
  });
});

describe("limit and offset as Manila's _validate_pagination_query reads them (shares)", () => {
  it.each([
    [{}, { limit: undefined, offset: 0 }],
    [
      { limit: '+3', offset: ' 4' },
      { limit: 3, offset: 4 },
    ],
  ])('%j is %j', (query, read) => {
    expect(validatedPagination(query)).toEqual(read);
  });

  it.each([
    [{ offset: 'x', limit: '-1' }, 'offset param must be an integer'],
    [{ limit: 'x' }, 'limit param must be an integer'],
    [{ limit: '-5', offset: '-1' }, 'limit param must be positive'],
    [{ offset: '-1' }, 'offset param must be positive'],
  ])('refuses %j with the 400 Manila gives first: %s', (query, message) => {
    expect(() => validatedPagination(query)).toThrow(
      expect.objectContaining({ status: 400, message }),
    );
  });
});

describe("the window of Manila's common.limited", () => {
  it.each([
    [{}, { offset: 0, limit: MAX_LIMIT }],
    [{ limit: '0' }, { offset: 0, limit: MAX_LIMIT }],
    [
      { limit: '2', offset: '3' },
      { offset: 3, limit: 2 },
    ],
    [{ limit: '5000' }, { offset: 0, limit: MAX_LIMIT }],
    [
      { limit: ' 7 ', offset: '+1' },
      { offset: 1, limit: 7 },
    ],
  ])('%j is %j', (query, window) => {
    expect(limitedWindow(query)).toEqual(window);
  });

  it.each([
    [{ offset: 'one', limit: 'two' }, 'offset param must be an integer'],
    [{ limit: '1.5' }, 'limit param must be an integer'],
    [{ limit: '-1', offset: '-1' }, 'limit param must be positive'],
    [{ offset: '-1' }, 'offset param must be positive'],
  ])('refuses %j with the 400 Manila gives first: %s', (query, message) => {
    expect(() => limitedWindow(query)).toThrow(expect.objectContaining({ status: 400, message }));
  });
});
