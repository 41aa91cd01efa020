import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { badRequest } from '#hawser/api-contracts';
import {
  SHARE_TYPES,
  SHARES,
  shareStateOf,
  type ShareDocument,
  type ShareRecord,
  type ShareTypeDocument,
} from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore, type Filter } from '#hawser/read-models';
import {
  allTenantsParam,
  booleanParam,
  holdsEveryPair,
  parseDictFilter,
  parseMetadataFilter,
} from '../listing/list-params.js';
import { ListingQuery } from '../listing/listing-query.js';
import { validatedPagination } from '../listing/page-params.js';
import {
  addTextFilters,
  NAMED_RESOURCE_SORT_KEYS,
  sortOrder,
  type SortOrder,
} from '../listing/sort-and-text-params.js';
import { atLeast, type ApiVersion, type Caller } from '../requester.js';
import { findShareDocuments } from './find-share-documents.js';
import { ShareDocuments } from './share-documents.js';

/** Sort keys Manila accepts for shares, mapped to read-model fields (`name` is display_name). */
const SORT_KEYS: Readonly<Record<string, string>> = {
  ...NAMED_RESOURCE_SORT_KEYS,
  share_proto: 'share_proto',
  project_id: 'project_id',
  user_id: 'user_id',
  share_type_id: 'share_type_id',
  availability_zone: 'availability_zone',
  host: 'host',
  is_public: 'is_public',
  snapshot_id: 'snapshot_id',
  share_network_id: 'share_network_id',
};

export interface ShareListPage {
  readonly shares: ShareDocument[];
  /** How many shares the whole listing holds: counted when asked (`with_count`), not per page. */
  count(): Promise<number>;
  /** The id after which the next page starts, when more shares follow this page. */
  readonly nextMarker: string | undefined;
}

/** GET /shares and /shares/detail (reference 3.4.2), and GraphQL's shares. */
export class ListShares extends ListingQuery<ShareListPage> {}

@QueryHandler(ListShares)
export class ListSharesHandler implements IQueryHandler<ListShares, ShareListPage> {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly shareDocuments: ShareDocuments,
  ) {}

  execute({ query, reader }: ListShares): Promise<ShareListPage> {
    return listShares(this.documents, this.shareDocuments, reader.caller, reader.version, query);
  }
}

const listShares = async (
  documents: DocumentStore,
  kept: ShareDocuments,
  auth: Caller,
  version: ApiVersion,
  query: Readonly<Record<string, string | undefined>>,
): Promise<ShareListPage> => {
  const { limit, offset } = validatedPagination(query);
  const order = sortOrder(query, SORT_KEYS, 'apply_sorting');
  // Manila lists the recycle bin only when asked (2.69), and otherwise leaves it out.
  const inRecycleBin =
    atLeast(version, '2.69') && booleanParam('is_soft_deleted', query.is_soft_deleted);

  const filter: Filter = { scheduled_to_be_deleted_at: inRecycleBin ? { $ne: null } : null };
  if (query.name !== undefined) filter.name = query.name;
  if (query.status !== undefined) filter.status = query.status;
  if (query.share_type_id !== undefined) filter.share_type_id = query.share_type_id;
  if (query.snapshot_id !== undefined) filter.snapshot_id = query.snapshot_id;
  if (query.share_network_id !== undefined) filter.share_network_id = query.share_network_id;
  // No share has a group or a share server here (DHSS=False, no groups): such a filter matches
  // none, as Manila's query would, rather than being dropped.
  if (query.share_group_id !== undefined) filter.share_group_id = query.share_group_id;
  if (query.share_server_id !== undefined) filter.share_server_id = query.share_server_id;
  addTextFilters(filter, query, version);
  const metadata = query.metadata === undefined ? undefined : parseMetadataFilter(query.metadata);
  if (query.extra_specs !== undefined) {
    const specs = parseDictFilter('extra_specs', query.extra_specs);
    const typeIds = await shareTypesWithSpecs(documents, specs);
    filter.share_type_id =
      query.share_type_id === undefined
        ? { $in: typeIds }
        : { $in: typeIds.filter((id) => id === query.share_type_id) };
  }
  // The API checked `share:list_by_host` (REST) or left the filter out (GraphQL) for this caller.
  if (query.host !== undefined) filter.host = query.host;

  const allTenants = auth.isAdmin && allTenantsParam(query.all_tenants);
  if (allTenants && query.project_id !== undefined) filter.project_id = query.project_id;
  if (!allTenants) filter.project_id = auth.projectId;
  const withPublic = !allTenants && booleanParam('is_public', query.is_public);
  const locations = atLeast(version, '2.35')
    ? { path: query.export_location_path, id: query.export_location_id }
    : {};
  const wanted = { offset, limit, marker: query.marker };

  // What the store cannot filter (metadata keys, export locations, a union with public shares)
  // is filtered here, over the project's shares; everything else is one indexed page and count.
  if (metadata !== undefined || locations.path !== undefined || locations.id !== undefined) {
    const matches = (share: ShareRecord) =>
      (metadata === undefined || holdsEveryPair(share.metadata ?? {}, metadata)) &&
      hasExportLocation(share, locations);
    const shares = await findAll(documents, filter, order, withPublic);
    return pageOf(kept, shares.filter(matches), wanted);
  }
  if (withPublic) return pageOf(kept, await findAll(documents, filter, order, true), wanted);
  return pageInStore(documents, kept, filter, order, wanted);
};

/**
 * The share types holding every wanted extra spec with the wanted value, for the `extra_specs`
 * filter (Manila joins its extra-specs table). Manila's join puts each wanted pair on one joined
 * row, so two or more pairs match nothing there; here every pair must match.
 */
const shareTypesWithSpecs = async (
  documents: DocumentStore,
  wanted: Readonly<Record<string, string>>,
): Promise<string[]> => {
  const types = await documents.find<ShareTypeDocument>(SHARE_TYPES, {});
  return types.filter((type) => holdsEveryPair(type.extra_specs, wanted)).map((type) => type.id);
};

interface WantedPage {
  readonly offset: number;
  readonly limit: number | undefined;
  readonly marker: string | undefined;
}

/** The page, the id the next one starts after when more follow, and the listing's count. */
const pageResult = (
  page: ShareDocument[],
  more: boolean,
  count: () => Promise<number>,
): ShareListPage => ({
  shares: page,
  count,
  nextMarker: more ? page[page.length - 1]?.id : undefined,
});

const markerNotFound = (marker: string) => badRequest(`marker [${marker}] not found`);

/**
 * One page, and the count when asked, both answered by the store from an index; the records
 * read whole only for shares whose document at that revision is not kept.
 */
const pageInStore = async (
  documents: DocumentStore,
  kept: ShareDocuments,
  filter: Filter,
  order: SortOrder,
  { offset, limit, marker }: WantedPage,
): Promise<ShareListPage> => {
  let start = offset;
  if (marker !== undefined) {
    const position = await positionInListing(documents, filter, order, marker);
    if (position === undefined) {
      const all = await findAll(documents, filter, order, false);
      return pageOf(kept, all, { offset, limit, marker });
    }
    start = position + 1;
  }
  // One share beyond the page tells whether another page follows, without counting the listing.
  const rows =
    limit === 0
      ? []
      : await findShareDocuments(documents, kept, filter, {
          sort: order.sort,
          skip: start,
          ...(limit !== undefined && { limit: limit + 1 }),
        });
  const page = limit === undefined ? rows : rows.slice(0, limit);
  // A page without a limit runs to the end, so it tells the count without a second query.
  const known =
    limit === undefined && (page.length > 0 || start === 0) ? start + page.length : undefined;
  return pageResult(page, limit !== undefined && rows.length > limit, () =>
    known === undefined ? documents.count(SHARES, filter) : Promise.resolve(known),
  );
};

/**
 * Where the marker share stands in the listing, by counting the shares before it in the sort
 * order (null sorts first, as in both stores), so a marker costs counts on the index rather
 * than the whole listing; a 400 when it is not listed. Undefined when the order cannot be
 * counted that way (a boolean key, or a key the filter already constrains).
 */
const positionInListing = async (
  documents: DocumentStore,
  filter: Filter,
  order: SortOrder,
  markerId: string,
): Promise<number | undefined> => {
  const [marker] = await documents.find<ShareRecord>(SHARES, { ...filter, id: markerId });
  if (marker === undefined) throw markerNotFound(markerId);
  const { field } = order;
  // A null field is left out of a stored record.
  const value = marker[field as keyof ShareRecord] ?? null;
  const ascending = order.direction === 'asc';
  const idBefore = { id: ascending ? { $lt: markerId } : { $gt: markerId } };
  if (field === 'id') return documents.count(SHARES, { ...filter, ...idBefore });
  if (Object.hasOwn(filter, field)) return undefined;
  if (value !== null && typeof value !== 'string' && typeof value !== 'number') return undefined;
  const count = (condition: Filter) => documents.count(SHARES, { ...filter, ...condition });
  const ties = await count({ [field]: value, ...idBefore });
  if (value === null) return ties + (ascending ? 0 : await count({ [field]: { $ne: null } }));
  if (!ascending) return ties + (await count({ [field]: { $gt: value } }));
  return ties + (await count({ [field]: null })) + (await count({ [field]: { $lt: value } }));
};

/** Every listed share in order, with the public shares of other projects when asked. */
const findAll = async (
  documents: DocumentStore,
  filter: Filter,
  order: SortOrder,
  withPublic: boolean,
): Promise<ShareRecord[]> => {
  const own = await documents.find<ShareRecord>(SHARES, filter, { sort: order.sort });
  if (!withPublic) return own;
  const { project_id: _ownProject, ...others } = filter;
  const shared = await documents.find<ShareRecord>(
    SHARES,
    { ...others, is_public: true },
    { sort: order.sort },
  );
  const seen = new Set(own.map((s) => s.id));
  const direction = order.direction === 'asc' ? 1 : -1;
  const key = order.field as keyof ShareRecord;
  return [...own, ...shared.filter((s) => !seen.has(s.id))].sort((a, b) => {
    const x = (a[key] ?? null) as string | number | null;
    const y = (b[key] ?? null) as string | number | null;
    if (x === y) return a.id < b.id ? -direction : direction;
    return (x ?? '') < (y ?? '') ? -direction : direction;
  });
};

/** A page of a listing filtered here, by offset or after a marker. */
const pageOf = (
  kept: ShareDocuments,
  shares: ShareRecord[],
  { offset, limit, marker }: WantedPage,
): ShareListPage => {
  let start = offset;
  if (marker !== undefined) {
    const index = shares.findIndex((s) => s.id === marker);
    if (index < 0) throw markerNotFound(marker);
    start = index + 1;
  }
  const page = shares.slice(start, limit === undefined ? undefined : start + limit);
  const more = limit !== undefined && start + limit < shares.length;
  const documents = page.map((record) => kept.of(record));
  return pageResult(documents, more, () => Promise.resolve(shares.length));
};

/** Manila's export_location_path / export_location_id filters (2.35), on any instance. */
const hasExportLocation = (
  share: ShareRecord,
  wanted: { readonly path?: string | undefined; readonly id?: string | undefined },
): boolean =>
  (wanted.path === undefined && wanted.id === undefined) ||
  shareStateOf(share).instances.some((instance) =>
    instance.exportLocations.some(
      (l) =>
        (wanted.path === undefined || l.path === wanted.path) &&
        (wanted.id === undefined || l.id === wanted.id),
    ),
  );
