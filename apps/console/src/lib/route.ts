/** The console's pages, addressed by the URL's fragment (no token or secret ever goes there). */
export type Route =
  | { readonly page: 'shares' }
  | { readonly page: 'share'; readonly id: string }
  | { readonly page: 'create'; readonly snapshotId: string | undefined }
  | { readonly page: 'admin'; readonly section: AdminSection };

export const ADMIN_SECTIONS = [
  'pools',
  'services',
  'messages',
  'parked-events',
  'projections',
  'events',
  'quotas',
] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];

const isAdminSection = (value: string | undefined): value is AdminSection =>
  (ADMIN_SECTIONS as readonly string[]).includes(value ?? '');

/** `#/shares/<id>`, `#/create?snapshot=<id>`, `#/admin/pools`, ...; anything else: the list. */
export const parseRoute = (hash: string): Route => {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query);
  if (parts[0] === 'shares' && parts[1]) return { page: 'share', id: parts[1] };
  if (parts[0] === 'create')
    return { page: 'create', snapshotId: params.get('snapshot') ?? undefined };
  if (parts[0] === 'admin' && isAdminSection(parts[1])) return { page: 'admin', section: parts[1] };
  return { page: 'shares' };
};

export const hrefOf = (route: Route): string => {
  switch (route.page) {
    case 'shares':
      return '#/shares';
    case 'share':
      return `#/shares/${encodeURIComponent(route.id)}`;
    case 'create':
      return route.snapshotId
        ? `#/create?snapshot=${encodeURIComponent(route.snapshotId)}`
        : '#/create';
    case 'admin':
      return `#/admin/${route.section}`;
  }
};
