import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { invalidInput, toBoolean } from '#hawser/api-contracts';
import { SNAPSHOTS, type SnapshotDocument } from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore, type Filter } from '#hawser/read-models';
import { holdsEveryPair, nonNegativeParam, parseMetadataFilter } from '../listing/list-params.js';
import { ListingQuery } from '../listing/listing-query.js';
import { MAX_LIMIT, paginationParams } from '../listing/page-params.js';
import {
  addTextFilters,
  NAMED_RESOURCE_SORT_KEYS,
  sortOrder,
} from '../listing/sort-and-text-params.js';
import { atLeast } from '../requester.js';

/** Sort keys Manila accepts for snapshots, mapped to read-model fields. */
const SORT_KEYS: Readonly<Record<string, string>> = {
  ...NAMED_RESOURCE_SORT_KEYS,
  share_id: 'share_id',
  project_id: 'project_id',
  user_id: 'user_id',
  progress: 'progress',
};

const FILTERS = [
  'name',
  'status',
  'share_id',
  'size',
  'description',
  'name~',
  'description~',
  'metadata',
];
/** The names Manila's snapshot API gives these filters before it checks them. */
const MANILA_FILTER_NAMES: Readonly<Record<string, string>> = {
  name: 'display_name',
  description: 'display_description',
  'name~': 'display_name~',
  'description~': 'display_description~',
};

export interface SnapshotListPage {
  readonly snapshots: SnapshotDocument[];
  /** True when a page follows. */
  readonly more: boolean;
}

/** GET /snapshots and /snapshots/detail (reference 3.6). */
export class ListSnapshots extends ListingQuery<SnapshotListPage> {}

@QueryHandler(ListSnapshots)
export class ListSnapshotsHandler implements IQueryHandler<ListSnapshots, SnapshotListPage> {
  constructor(@Inject(DOCUMENT_STORE) private readonly documents: DocumentStore) {}

  async execute({ query, reader }: ListSnapshots): Promise<SnapshotListPage> {
    const { caller, version } = reader;
    for (const key of FILTERS) {
      const value = query[key];
      if (value !== undefined && (typeof value !== 'string' || value === '')) {
        throw invalidInput(
          `Wrong '${MANILA_FILTER_NAMES[key] ?? key}' filter provided: '${value ?? ''}'.`,
        );
      }
    }
    const { limit: asked, offset } = paginationParams(query);
    const limit = asked === undefined ? undefined : Math.min(asked, MAX_LIMIT);
    const { sort } = sortOrder(query, SORT_KEYS, 'paginate_query');
    const filter: Filter = {};
    if (query.name !== undefined) filter.name = query.name;
    if (query.status !== undefined) filter.status = query.status;
    if (query.share_id !== undefined) filter.share_id = query.share_id;
    if (query.size !== undefined) filter.size = Number(nonNegativeParam('size', query.size));
    addTextFilters(filter, query, version);
    const metadata =
      atLeast(version, '2.73') && query.metadata !== undefined
        ? parseMetadataFilter(query.metadata)
        : undefined;
    const allTenants = caller.isAdmin && toBoolean(query.all_tenants ?? 'false') === true;
    if (!allTenants) filter.project_id = caller.projectId;
    else if (query.project_id !== undefined) filter.project_id = query.project_id;

    if (!Number.isSafeInteger(offset)) return { snapshots: [], more: false };
    // One more than asked tells whether a next page exists. A metadata filter is matched after the
    // read (see holdsEveryPair), so the page is cut after it.
    const found =
      metadata === undefined
        ? await this.documents.find<SnapshotDocument>(SNAPSHOTS, filter, {
            sort,
            skip: offset,
            ...(limit !== undefined && { limit: limit + 1 }),
          })
        : (await this.documents.find<SnapshotDocument>(SNAPSHOTS, filter, { sort }))
            .filter((doc) => holdsEveryPair(doc.metadata ?? {}, metadata))
            .slice(offset, limit === undefined ? undefined : offset + limit + 1);
    const more = limit !== undefined && found.length > limit;
    return { snapshots: more ? found.slice(0, limit) : found, more };
  }
}
