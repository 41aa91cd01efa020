import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { badRequest } from '#hawser/api-contracts';
import { SHARES, shareDocumentOf, type ShareDocument, type ShareRecord } from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore, type Filter } from '#hawser/read-models';
import {
  allTenantsParam,
  booleanParam,
  matchesMetadata,
  nonNegativeParam,
  parseMetadataFilter,
} from '../listing/list-params.js';
import { ListingQuery } from '../listing/listing-query.js';
import {
  addTextFilters,
  NAMED_RESOURCE_SORT_KEYS,
  sortOrder,
} from '../listing/sort-and-text-params.js';
import { atLeast, type ApiVersion, type Caller } from '../requester.js';

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
  readonly count: number;
  /** The id after which the next page starts, when this page is full. */
  readonly nextMarker: string | undefined;
}

/** GET /shares and /shares/detail (reference 3.4.2), and GraphQL's shares. */
export class ListShares extends ListingQuery<ShareListPage> {}

@QueryHandler(ListShares)
export class ListSharesHandler implements IQueryHandler<ListShares, ShareListPage> {
  constructor(@Inject(DOCUMENT_STORE) private readonly documents: DocumentStore) {}

  execute({ query, reader }: ListShares): Promise<ShareListPage> {
    return listShares(this.documents, reader.caller, reader.version, query);
  }
}

const listShares = async (
  documents: DocumentStore,
  auth: Caller,
  version: ApiVersion,
  query: Readonly<Record<string, string | undefined>>,
): Promise<ShareListPage> => {
  const limit = nonNegativeParam('limit', query.limit);
  const offset = nonNegativeParam('offset', query.offset) ?? 0;
  const order = sortOrder(
    query,
    SORT_KEYS,
    (key, direction) =>
      `Wrong sorting data provided: sort key is '${key}' and sort direction is '${direction}'.`,
  );
  // Manila lists the recycle bin only when asked (2.69), and otherwise leaves it out.
  const inRecycleBin =
    atLeast(version, '2.69') && booleanParam('is_soft_deleted', query.is_soft_deleted);

  const filter: Filter = {};
  if (query.name !== undefined) filter.name = query.name;
  if (query.status !== undefined) filter.status = query.status;
  if (query.share_type_id !== undefined) filter.share_type_id = query.share_type_id;
  if (query.snapshot_id !== undefined) filter.snapshot_id = query.snapshot_id;
  if (query.share_network_id !== undefined) filter.share_network_id = query.share_network_id;
  addTextFilters(filter, query, version);
  const metadata = query.metadata === undefined ? undefined : parseMetadataFilter(query.metadata);
  if (auth.isAdmin && query.host !== undefined) filter.host = query.host;

  const allTenants = auth.isAdmin && allTenantsParam(query.all_tenants);
  if (allTenants && query.project_id !== undefined) filter.project_id = query.project_id;
  const { sort } = order;

  let shares: ShareRecord[];
  if (allTenants) {
    shares = await documents.find<ShareRecord>(SHARES, filter, { sort });
  } else {
    shares = await documents.find<ShareRecord>(
      SHARES,
      { ...filter, project_id: auth.projectId },
      { sort },
    );
    if (booleanParam('is_public', query.is_public)) {
      const others = await documents.find<ShareRecord>(
        SHARES,
        { ...filter, is_public: true },
        { sort },
      );
      const seen = new Set(shares.map((s) => s.id));
      const merged = [...shares, ...others.filter((s) => !seen.has(s.id))];
      const direction = order.direction === 'asc' ? 1 : -1;
      const key = order.field as keyof ShareRecord;
      shares = merged.sort((a, b) => {
        const x = a[key] as string | number | null;
        const y = b[key] as string | number | null;
        if (x === y) return a.id < b.id ? -1 : 1;
        return (x ?? '') < (y ?? '') ? -direction : direction;
      });
    }
  }

  shares = shares.filter((share) => Boolean(share.state.recycleBin) === inRecycleBin);
  if (metadata !== undefined) {
    shares = shares.filter((share) => matchesMetadata(share.metadata, metadata));
  }
  if (atLeast(version, '2.35')) {
    const path = query.export_location_path;
    const locationId = query.export_location_id;
    if (path !== undefined || locationId !== undefined) {
      shares = shares.filter((share) =>
        share.state.instances.some((instance) =>
          instance.exportLocations.some(
            (l) =>
              (path === undefined || l.path === path) &&
              (locationId === undefined || l.id === locationId),
          ),
        ),
      );
    }
  }

  const count = shares.length;
  let start = offset;
  if (query.marker !== undefined) {
    const index = shares.findIndex((s) => s.id === query.marker);
    if (index < 0) throw badRequest(`marker [${query.marker}] not found`);
    start = index + 1;
  }
  const page = shares.slice(start, limit === undefined ? undefined : start + limit);
  const last = page[page.length - 1];
  const nextMarker =
    limit !== undefined && page.length === limit && start + limit < count ? last?.id : undefined;
  return { shares: page.map(shareDocumentOf), count, nextMarker };
};
