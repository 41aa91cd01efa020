import { hrefOf, parseRoute, type Route } from './route';

describe('console routes in the URL fragment', () => {
  it.each<[string, Route]>([
    ['', { page: 'shares' }],
    ['#/shares', { page: 'shares' }],
    ['#/shares/abc-123', { page: 'share', id: 'abc-123' }],
    ['#/create', { page: 'create', snapshotId: undefined }],
    ['#/create?snapshot=s-1', { page: 'create', snapshotId: 's-1' }],
    ['#/admin/pools', { page: 'admin', section: 'pools' }],
    ['#/admin/parked-events', { page: 'admin', section: 'parked-events' }],
  ])('given the fragment %j, when parsed, then it names %j', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('given an unknown admin section or page, when parsed, then the shares list is shown', () => {
    expect(parseRoute('#/admin/secrets')).toEqual({ page: 'shares' });
    expect(parseRoute('#/nowhere')).toEqual({ page: 'shares' });
  });

  it('given a route, when written as a link and read back, then it is the same route', () => {
    const routes: Route[] = [
      { page: 'share', id: 'a b/c' },
      { page: 'create', snapshotId: 'snap 1' },
      { page: 'admin', section: 'quotas' },
    ];
    for (const route of routes) expect(parseRoute(hrefOf(route))).toEqual(route);
  });
});
