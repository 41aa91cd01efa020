/** What the shares page asks for, in Manila's list parameters. */
export interface ShareListQuery {
  readonly nameContains: string;
  readonly status: string;
  readonly shareType: string;
  readonly availabilityZone: string;
  readonly allTenants: boolean;
  readonly sortKey: string;
  readonly sortDir: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

export const SORT_KEYS = [
  'created_at',
  'name',
  'size',
  'status',
  'availability_zone',
  'share_type_id',
] as const;

export const DEFAULT_LIST_QUERY: ShareListQuery = {
  nameContains: '',
  status: '',
  shareType: '',
  availabilityZone: '',
  allTenants: false,
  sortKey: 'created_at',
  sortDir: 'desc',
  limit: 20,
  offset: 0,
};

/** `GET /v2/shares/detail`'s query string: Manila's filters, sort, page and its total count. */
export const shareListPath = (query: ShareListQuery): string => {
  const params = new URLSearchParams();
  if (query.nameContains.trim()) params.set('name~', query.nameContains.trim());
  if (query.status) params.set('status', query.status);
  if (query.shareType) params.set('share_type_id', query.shareType);
  if (query.availabilityZone) params.set('availability_zone', query.availabilityZone);
  if (query.allTenants) params.set('all_tenants', '1');
  params.set('sort_key', query.sortKey);
  params.set('sort_dir', query.sortDir);
  params.set('limit', String(query.limit));
  params.set('offset', String(query.offset));
  params.set('with_count', 'true');
  return `/v2/shares/detail?${params.toString()}`;
};

/**
 * The query after a click on a column's sort button: the column already sorted on turns the
 * other way; another is sorted on ascending, from the first page.
 */
export const sortedBy = (query: ShareListQuery, sortKey: string): ShareListQuery => ({
  ...query,
  sortKey,
  sortDir: query.sortKey === sortKey && query.sortDir === 'asc' ? 'desc' : 'asc',
  offset: 0,
});
