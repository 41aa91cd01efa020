import { DEFAULT_LIST_QUERY, shareListPath, sortedBy } from './share-list-query';

const paramsOf = (path: string) => Object.fromEntries(new URL(path, 'http://h').searchParams);

describe("shareListPath: the shares page's query in Manila's list parameters", () => {
  it('given no filter, when written, then it asks for the first page, newest first, with the count', () => {
    expect(paramsOf(shareListPath(DEFAULT_LIST_QUERY))).toEqual({
      sort_key: 'created_at',
      sort_dir: 'desc',
      limit: '20',
      offset: '0',
      with_count: 'true',
    });
  });

  it("given every filter, when written, then each is Manila's parameter", () => {
    const path = shareListPath({
      ...DEFAULT_LIST_QUERY,
      nameContains: ' web ',
      status: 'available',
      shareType: 'type-1',
      availabilityZone: 'az-2',
      allTenants: true,
      sortKey: 'size',
      sortDir: 'asc',
      limit: 50,
      offset: 100,
    });
    expect(path.startsWith('/v2/shares/detail?')).toBe(true);
    expect(paramsOf(path)).toEqual({
      'name~': 'web',
      status: 'available',
      share_type_id: 'type-1',
      availability_zone: 'az-2',
      all_tenants: '1',
      sort_key: 'size',
      sort_dir: 'asc',
      limit: '50',
      offset: '100',
      with_count: 'true',
    });
  });
});

describe("sortedBy: a click on a column's sort button", () => {
  it('given another column, when clicked, then the list is sorted on it ascending from the first page', () => {
    const query = { ...DEFAULT_LIST_QUERY, offset: 40 };
    expect(sortedBy(query, 'name')).toEqual({
      ...query,
      sortKey: 'name',
      sortDir: 'asc',
      offset: 0,
    });
  });

  it('given the column sorted on, when clicked, then its order turns, and turns back', () => {
    const ascending = sortedBy(DEFAULT_LIST_QUERY, 'size');
    const descending = sortedBy(ascending, 'size');
    expect(descending.sortDir).toBe('desc');
    expect(sortedBy(descending, 'size').sortDir).toBe('asc');
  });
});
