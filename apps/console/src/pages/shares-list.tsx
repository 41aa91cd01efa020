import { useEffect, useRef, useState } from 'preact/hooks';
import {
  PROJECT_SHARES_CHANGED,
  STATUSES,
  type ShareChange,
  type ShareTypeView,
  type ShareView,
  type ZoneView,
} from '../api/shares';
import { subscribe } from '../api/live';
import { useCaller } from '../caller';
import {
  ErrorText,
  Progress,
  Status,
  when,
  Table,
  type SortableColumn,
} from '../components/common';
import { useLoad } from '../hooks';
import { hrefOf } from '../lib/route';
import {
  DEFAULT_LIST_QUERY,
  shareListPath,
  SORT_KEYS,
  sortedBy,
  type ShareListQuery,
} from '../lib/share-list-query';

interface ShareList {
  readonly shares: ShareView[];
  readonly count?: number;
}

/** The project's shares with Manila's filters, sorting and pages; statuses follow live. */
export const SharesList = () => {
  const { api, live, permissions } = useCaller();
  const [query, setQuery] = useState<ShareListQuery>(DEFAULT_LIST_QUERY);
  const list = useLoad(() => api.rest<ShareList>('GET', shareListPath(query)), [query]);
  const types = useLoad(() => api.rest<{ share_types: ShareTypeView[] }>('GET', '/v2/types'), []);
  const zones = useLoad(
    () => api.rest<{ availability_zones: ZoneView[] }>('GET', '/v2/availability-zones'),
    [],
  );
  const [changes, setChanges] = useState<Record<string, ShareChange>>({});
  const reloadSoon = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const known = useRef(new Set<string>());
  known.current = new Set(list.data?.shares.map((s) => s.id));

  useEffect(() => setChanges({}), [list.data]);
  useEffect(
    () =>
      subscribe<{ projectSharesChanged: ShareChange }>(
        live,
        PROJECT_SHARES_CHANGED,
        { projectId: permissions.project_id },
        {
          onData: ({ projectSharesChanged: change }) => {
            setChanges((current) => ({ ...current, [change.shareId]: change }));
            // A share the page does not show yet, or one gone: read the page again.
            if (!known.current.has(change.shareId) || change.status === 'deleted') {
              clearTimeout(reloadSoon.current);
              reloadSoon.current = setTimeout(list.reload, 300);
            }
          },
          onCatchUp: list.reload,
        },
      ),
    [live, permissions.project_id, list.reload],
  );

  const set = (patch: Partial<ShareListQuery>) => setQuery((q) => ({ ...q, offset: 0, ...patch }));
  const sortable = (label: string, sortKey: string): SortableColumn => ({
    label,
    sort: query.sortKey !== sortKey ? 'none' : query.sortDir === 'asc' ? 'ascending' : 'descending',
    onSort: () => setQuery((q) => sortedBy(q, sortKey)),
  });
  const total = list.data?.count;
  const page = Math.floor(query.offset / query.limit) + 1;
  const pages = total === undefined ? undefined : Math.max(1, Math.ceil(total / query.limit));

  return (
    <>
      <h1>Shares</h1>
      <form
        class="filters card"
        aria-label="Filter and sort shares"
        onSubmit={(e) => e.preventDefault()}
      >
        <label>
          Name contains
          <input
            type="search"
            value={query.nameContains}
            onInput={(e) => set({ nameContains: e.currentTarget.value })}
          />
        </label>
        <label>
          Status
          <select value={query.status} onChange={(e) => set({ status: e.currentTarget.value })}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Share type
          <select
            value={query.shareType}
            onChange={(e) => set({ shareType: e.currentTarget.value })}
          >
            <option value="">any</option>
            {types.data?.share_types.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Zone
          <select
            value={query.availabilityZone}
            onChange={(e) => set({ availabilityZone: e.currentTarget.value })}
          >
            <option value="">any</option>
            {zones.data?.availability_zones.map((z) => (
              <option key={z.name}>{z.name}</option>
            ))}
          </select>
        </label>
        <label>
          Sort by
          <select value={query.sortKey} onChange={(e) => set({ sortKey: e.currentTarget.value })}>
            {SORT_KEYS.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </label>
        <label>
          Order
          <select
            value={query.sortDir}
            onChange={(e) => set({ sortDir: e.currentTarget.value as 'asc' | 'desc' })}
          >
            <option value="desc">descending</option>
            <option value="asc">ascending</option>
          </select>
        </label>
        {permissions.is_admin && (
          <label class="inline">
            <input
              type="checkbox"
              checked={query.allTenants}
              onChange={(e) => set({ allTenants: e.currentTarget.checked })}
            />
            All projects
          </label>
        )}
      </form>
      <ErrorText message={list.error} />
      <Table
        columns={[
          sortable('Name', 'name'),
          sortable('Status', 'status'),
          sortable('Size (GiB)', 'size'),
          'Protocol',
          sortable('Zone', 'availability_zone'),
          'Type',
          query.allTenants && 'Project',
          sortable('Created', 'created_at'),
        ]}
        busy={list.loading}
        caption={`Shares${total !== undefined ? `, ${total} in all` : ''}`}
      >
        {list.data?.shares.map((share) => {
          const change = changes[share.id];
          const status = change?.status ?? share.status;
          const progress = change ? change.progress : share.progress;
          return (
            <tr key={share.id} data-share-id={share.id}>
              <td>
                <a href={hrefOf({ page: 'share', id: share.id })}>{share.name || share.id}</a>
              </td>
              <td>
                <Status status={status} />{' '}
                {status !== 'available' && (
                  <Progress progress={progress} label={`Progress of ${share.name ?? share.id}`} />
                )}
              </td>
              <td>{share.size}</td>
              <td>{share.share_proto}</td>
              <td>{share.availability_zone}</td>
              <td>{share.share_type_name}</td>
              {query.allTenants && <td>{share.project_id.slice(0, 12)}</td>}
              <td>{when(share.created_at)}</td>
            </tr>
          );
        })}
      </Table>
      {list.data?.shares.length === 0 && <p>No shares match.</p>}
      <nav class="pager" aria-label="Pages">
        <button
          type="button"
          disabled={query.offset === 0}
          onClick={() => setQuery((q) => ({ ...q, offset: Math.max(0, q.offset - q.limit) }))}
        >
          Previous
        </button>
        <span aria-live="polite">
          Page {page}
          {pages !== undefined && ` of ${pages}`}
          {total !== undefined && ` (${total} shares)`}
        </span>
        <button
          type="button"
          disabled={
            pages !== undefined ? page >= pages : (list.data?.shares.length ?? 0) < query.limit
          }
          onClick={() => setQuery((q) => ({ ...q, offset: q.offset + q.limit }))}
        >
          Next
        </button>
        <label>
          Per page
          <select
            value={query.limit}
            onChange={(e) => set({ limit: Number(e.currentTarget.value) })}
          >
            {[10, 20, 50, 100].map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
      </nav>
    </>
  );
};
