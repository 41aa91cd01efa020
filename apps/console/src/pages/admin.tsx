import { useEffect, useRef, useState } from 'preact/hooks';
import { subscribe } from '../api/live';
import { PROJECT_SHARES_CHANGED } from '../api/shares';
import { useCaller } from '../caller';
import { ErrorText, Progress, Section, Status, when, Table } from '../components/common';
import { PoolsChart, type PoolCapacity } from '../components/pools-chart';
import { useAction, useLoad } from '../hooks';
import type { AdminSection } from '../lib/route';

/** The operator's pages, each offered only when the rule it reads passes. */
export const ADMIN_PAGES: readonly { section: AdminSection; title: string; rule: string }[] = [
  { section: 'pools', title: 'Pools', rule: 'scheduler_stats:pools:index' },
  { section: 'services', title: 'Services', rule: 'service:index' },
  { section: 'messages', title: 'Messages', rule: 'message:get_all' },
  { section: 'parked-events', title: 'Parked events', rule: 'hawser:parked_events:get_all' },
  { section: 'projections', title: 'Projections', rule: 'hawser:projections:get_all' },
  { section: 'events', title: 'Event log', rule: 'hawser:events:get_all' },
  { section: 'quotas', title: 'Quotas', rule: 'quota_set:show' },
];

export const AdminPage = ({ section }: { section: AdminSection }) => {
  const { can } = useCaller();
  const page = ADMIN_PAGES.find((p) => p.section === section);
  if (!page || !can(page.rule)) return <p role="alert">This page is not open to you.</p>;
  const Body = BODIES[section];
  return (
    <>
      <h1>{page.title}</h1>
      <Body />
    </>
  );
};

const POOLS = `{ pools { name host backend pool availabilityZone totalCapacityGb freeCapacityGb allocatedCapacityGb provisionedCapacityGb reportedAt } }`;

/** The default capability report interval: pools change no faster than the reports come. */
const POOLS_REREAD_MS = 10_000;

const Pools = () => {
  const { api, live, permissions } = useCaller();
  const pools = useLoad(
    () => api.graphql<{ pools: PoolCapacity[] }>(POOLS).then((d) => d.pools),
    [],
  );
  const later = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Back ends report their pools every few seconds (HAWSER_REPORT_INTERVAL_S): read them as often.
  useEffect(() => {
    const timer = setInterval(pools.reload, POOLS_REREAD_MS);
    return () => clearInterval(timer);
  }, [pools.reload]);
  // A share of the caller's project placed or removed changes what is allocated: read at once.
  useEffect(
    () =>
      subscribe(
        live,
        PROJECT_SHARES_CHANGED,
        { projectId: permissions.project_id },
        {
          onData: () => {
            clearTimeout(later.current);
            later.current = setTimeout(pools.reload, 300);
          },
        },
      ),
    [live, permissions.project_id, pools.reload],
  );
  return (
    <>
      <ErrorText message={pools.error} />
      {pools.data && <PoolsChart pools={pools.data} />}
      <button type="button" class="secondary" onClick={pools.reload}>
        Refresh
      </button>
    </>
  );
};

interface ServiceView {
  id: number | string;
  binary: string;
  host: string;
  zone: string;
  status: string;
  state: string;
  updated_at: string | null;
}

const Services = () => {
  const { api } = useCaller();
  const services = useLoad(() => api.rest<{ services: ServiceView[] }>('GET', '/v2/services'), []);
  return (
    <>
      <ErrorText message={services.error} />
      <Table columns={['Binary', 'Host', 'Zone', 'Status', 'State', 'Updated']}>
        {services.data?.services.map((s) => (
          <tr key={`${s.binary}@${s.host}`}>
            <td>{s.binary}</td>
            <td>{s.host}</td>
            <td>{s.zone}</td>
            <td>{s.status}</td>
            <td>
              <Status status={s.state} />
            </td>
            <td>{when(s.updated_at)}</td>
          </tr>
        ))}
      </Table>
    </>
  );
};

interface MessageView {
  id: string;
  resource_type: string;
  resource_id: string;
  action_id: string;
  message_level: string;
  user_message: string;
  created_at: string;
}

const Messages = () => {
  const { api, can } = useCaller();
  const messages = useLoad(() => api.rest<{ messages: MessageView[] }>('GET', '/v2/messages'), []);
  const action = useAction();
  return (
    <>
      <ErrorText message={messages.error ?? action.error} />
      {messages.data?.messages.length === 0 && <p>No messages.</p>}
      <ul class="plain messages">
        {messages.data?.messages.map((m) => (
          <li key={m.id} class="card">
            <strong>{m.message_level}</strong> {m.user_message}
            <span class="muted">
              {' '}
              · {m.resource_type} {m.resource_id} · {when(m.created_at)}
            </span>{' '}
            {can('message:delete') && (
              <button
                type="button"
                class="small secondary"
                aria-label={`Delete message ${m.id}`}
                onClick={() =>
                  void action
                    .run(() => api.rest('DELETE', `/v2/messages/${m.id}`))
                    .then((ok) => ok && messages.reload())
                }
              >
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
};

interface ParkedView {
  id: string;
  process_manager: string;
  event_type: string;
  stream_id: string;
  error: string;
  attempts: number;
  parked_at: string;
}

const ParkedEvents = () => {
  const { api, can } = useCaller();
  const parked = useLoad(
    () => api.rest<{ parked_events: ParkedView[] }>('GET', '/hawser/v1/parked-events'),
    [],
  );
  const action = useAction();
  const [outcome, setOutcome] = useState<string | undefined>(undefined);
  const retry = (p: ParkedView) =>
    void action
      .run(async () => {
        const answer = await api.rest<{ retried: boolean }>(
          'POST',
          `/hawser/v1/parked-events/${encodeURIComponent(p.id)}/retry`,
        );
        setOutcome(
          answer.retried
            ? `${p.event_type} went through this time.`
            : `${p.event_type} failed again and stays parked.`,
        );
      })
      .then(() => parked.reload());
  return (
    <>
      <ErrorText message={parked.error ?? action.error} />
      {outcome && <p role="status">{outcome}</p>}
      {parked.data?.parked_events.length === 0 && <p>No parked events.</p>}
      <Table
        columns={[
          'Workflow',
          'Event',
          'Stream',
          'Error',
          'Attempts',
          'Parked',
          can('hawser:parked_events:retry') && 'Actions',
        ]}
      >
        {parked.data?.parked_events.map((p) => (
          <tr key={p.id}>
            <td>{p.process_manager}</td>
            <td>{p.event_type}</td>
            <td>
              <code>{p.stream_id}</code>
            </td>
            <td>{p.error}</td>
            <td>{p.attempts}</td>
            <td>{when(p.parked_at)}</td>
            {can('hawser:parked_events:retry') && (
              <td>
                <button
                  type="button"
                  class="small"
                  disabled={action.busy}
                  aria-label={`Retry ${p.event_type} of ${p.stream_id}`}
                  onClick={() => retry(p)}
                >
                  Retry
                </button>
              </td>
            )}
          </tr>
        ))}
      </Table>
    </>
  );
};

interface ProjectionView {
  name: string;
  position: number;
  rebuilding: boolean;
  rebuild?: { position: number; head: number; percent: number };
  error?: string;
  rebuilt_in_ms?: number;
}

/** How often the page reads the projections while one is rebuilding, to move its bar. */
const REBUILD_POLL_MS = 250;

const Projections = () => {
  const { api, can } = useCaller();
  const projections = useLoad(
    () => api.rest<{ projections: ProjectionView[] }>('GET', '/hawser/v1/projections'),
    [],
  );
  const action = useAction();
  const [rebuilding, setRebuilding] = useState<string | undefined>(undefined);
  const [finished, setFinished] = useState<{ name: string; ms: number } | undefined>(undefined);
  const anyRebuilding =
    rebuilding !== undefined || !!projections.data?.projections.some((p) => p.rebuilding);
  // The rebuild answers once swapped in; until then its position is read from the listing.
  useEffect(() => {
    if (!anyRebuilding) return undefined;
    const timer = setInterval(projections.reload, REBUILD_POLL_MS);
    return () => clearInterval(timer);
  }, [anyRebuilding, projections.reload]);
  const rebuild = (name: string) => {
    setRebuilding(name);
    setFinished(undefined);
    void action
      .run(async () => {
        const { projection } = await api.rest<{ projection: ProjectionView }>(
          'POST',
          `/hawser/v1/projections/${encodeURIComponent(name)}/rebuild`,
        );
        setFinished({ name, ms: projection.rebuilt_in_ms ?? 0 });
      })
      .finally(() => {
        setRebuilding(undefined);
        projections.reload();
      });
  };
  return (
    <>
      <ErrorText message={projections.error ?? action.error} />
      {finished && <p role="status">{`${finished.name} rebuilt in ${finished.ms} ms.`}</p>}
      <Table
        columns={[
          'Projection',
          'Position',
          'State',
          can('hawser:projections:rebuild') && 'Actions',
        ]}
      >
        {projections.data?.projections.map((p) => (
          <tr key={p.name}>
            <td>{p.name}</td>
            <td>{p.position}</td>
            <td>
              <RebuildState
                projection={p}
                started={rebuilding === p.name}
                finished={finished?.name === p.name}
              />
            </td>
            {can('hawser:projections:rebuild') && (
              <td>
                <button
                  type="button"
                  class="small"
                  disabled={action.busy}
                  onClick={() => rebuild(p.name)}
                  aria-label={`Rebuild ${p.name}`}
                >
                  Rebuild
                </button>
              </td>
            )}
          </tr>
        ))}
      </Table>
    </>
  );
};

/** A rebuild's bar: its position against the log's head while it runs, full once swapped in. */
const RebuildState = ({
  projection: p,
  started,
  finished,
}: {
  projection: ProjectionView;
  started: boolean;
  finished: boolean;
}) => {
  const label = `Rebuilding ${p.name}`;
  if (finished) {
    return (
      <>
        <Progress progress="100" label={label} /> rebuilt
      </>
    );
  }
  if (p.rebuild) {
    return (
      <>
        <Progress progress={String(p.rebuild.percent)} label={label} />{' '}
        <span class="muted">
          position {p.rebuild.position} of {p.rebuild.head}
        </span>
      </>
    );
  }
  if (started || p.rebuilding) return <Progress progress="0" label={label} />;
  return <>{p.error ?? 'following the log'}</>;
};

interface AuditEvent {
  position: number;
  stream_id: string;
  revision: number;
  id: string;
  type: string;
  recorded_at: string;
  user_id: string | null;
  project_id: string | null;
  causation_id: string | null;
}

const EventLog = () => {
  const { api } = useCaller();
  const [filter, setFilter] = useState({ streamPrefix: '', eventType: '', after: '' });
  const log = useLoad(() => {
    const params = new URLSearchParams({ limit: '50' });
    if (filter.streamPrefix) params.set('stream_prefix', filter.streamPrefix);
    if (filter.eventType) params.set('event_type', filter.eventType);
    if (filter.after) params.set('after', filter.after);
    return api.rest<{ events: AuditEvent[]; next_after: number | null }>(
      'GET',
      `/hawser/v1/events?${params.toString()}`,
    );
  }, [filter]);
  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setFilter({
      streamPrefix: String(form.get('stream_prefix')).trim(),
      eventType: String(form.get('event_type')).trim(),
      after: '',
    });
  };
  return (
    <>
      <form class="filters card" aria-label="Filter the event log" onSubmit={apply}>
        <label>
          Stream prefix
          <input name="stream_prefix" placeholder="share-" defaultValue={filter.streamPrefix} />
        </label>
        <label>
          Event types (comma-separated)
          <input name="event_type" placeholder="ShareCreated" defaultValue={filter.eventType} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <ErrorText message={log.error} />
      <Table columns={['#', 'Type', 'Stream', 'When', 'Who', 'Caused by']}>
        {log.data?.events.map((e) => (
          <tr key={e.id}>
            <td>{e.position}</td>
            <td>{e.type}</td>
            <td>
              <code>
                {e.stream_id}@{e.revision}
              </code>
            </td>
            <td>{when(e.recorded_at)}</td>
            <td>{e.user_id ?? 'Hawser'}</td>
            <td>
              <code>{e.causation_id?.slice(0, 8)}</code>
            </td>
          </tr>
        ))}
      </Table>
      <nav class="pager" aria-label="Event log pages">
        <button
          type="button"
          disabled={!filter.after}
          onClick={() => setFilter({ ...filter, after: '' })}
        >
          First page
        </button>
        <button
          type="button"
          disabled={log.data?.next_after === null || log.data === undefined}
          onClick={() => setFilter({ ...filter, after: String(log.data?.next_after ?? '') })}
        >
          Next page
        </button>
      </nav>
    </>
  );
};

type QuotaSet = Record<string, { limit: number; in_use: number; reserved: number } | string>;

const Quotas = () => {
  const { api, can, permissions } = useCaller();
  const [project, setProject] = useState(permissions.project_id);
  const quota = useLoad(
    () =>
      api.rest<{ quota_set: QuotaSet }>(
        'GET',
        `/v2/quota-sets/${encodeURIComponent(project)}/detail`,
      ),
    [project],
  );
  const action = useAction();
  const rows = Object.entries(quota.data?.quota_set ?? {}).filter(
    (entry): entry is [string, { limit: number; in_use: number; reserved: number }] =>
      typeof entry[1] === 'object',
  );
  const save = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const changed = Object.fromEntries(
      rows
        .map(([name, q]) => [name, Number(form.get(name)), q.limit] as const)
        .filter(([, value, limit]) => value !== limit)
        .map(([name, value]) => [name, value]),
    );
    void action
      .run(() =>
        api.rest('PUT', `/v2/quota-sets/${encodeURIComponent(project)}`, { quota_set: changed }),
      )
      .then((ok) => ok && quota.reload());
  };
  return (
    <>
      <form
        class="filters card"
        aria-label="Choose a project"
        onSubmit={(e) => {
          e.preventDefault();
          const value = new FormData(e.currentTarget as HTMLFormElement).get('project');
          setProject(String(value).trim());
        }}
      >
        <label>
          Project ID
          <input name="project" defaultValue={project} />
        </label>
        <button type="submit">Show</button>
      </form>
      <ErrorText message={quota.error ?? action.error} />
      <Section id="quota" title={`Quotas of ${project}`}>
        <form onSubmit={save} aria-label="Quota limits">
          <Table columns={['Resource', 'In use', 'Reserved', 'Limit (-1: unlimited)']}>
            {rows.map(([name, q]) => (
              <tr key={`${project}-${name}`}>
                <td>{name}</td>
                <td>{q.in_use}</td>
                <td>{q.reserved}</td>
                <td>
                  {can('quota_set:update') ? (
                    <input
                      name={name}
                      type="number"
                      min={-1}
                      defaultValue={String(q.limit)}
                      aria-label={`Limit of ${name}`}
                    />
                  ) : (
                    q.limit
                  )}
                </td>
              </tr>
            ))}
          </Table>
          {can('quota_set:update') && (
            <button type="submit" disabled={action.busy}>
              Save limits
            </button>
          )}
        </form>
      </Section>
    </>
  );
};

const BODIES: Record<AdminSection, () => preact.JSX.Element> = {
  pools: Pools,
  services: Services,
  messages: Messages,
  'parked-events': ParkedEvents,
  projections: Projections,
  events: EventLog,
  quotas: Quotas,
};
