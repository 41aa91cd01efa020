import { useEffect, useRef, useState } from 'preact/hooks';
import { subscribe } from '../api/live';
import { SHARE_CHANGED, type ShareChange, type ZoneView } from '../api/shares';
import { isInternalMetadata, SHARE_PAGE, type ShareDetail } from '../api/share-detail';
import { useCaller } from '../caller';
import {
  CopyButton,
  ErrorText,
  Progress,
  Section,
  Status,
  when,
  Table,
} from '../components/common';
import { AffinityGraph } from '../components/affinity-graph';
import { Timeline } from '../components/timeline';
import { useAction, useLoad } from '../hooks';
import { hrefOf } from '../lib/route';
import { navigate } from '../routing';

/** A share: status, size, export locations, rules, metadata, snapshots, replicas, links, history. */
export const SharePage = ({ id }: { id: string }) => {
  const { api, live } = useCaller();
  const share = useLoad(
    () => api.graphql<{ share: ShareDetail }>(SHARE_PAGE, { id }).then((d) => d.share),
    [id],
  );
  const [latest, setLatest] = useState<ShareChange | undefined>(undefined);
  const refresh = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => setLatest(undefined), [share.data]);
  useEffect(
    () =>
      subscribe<{ shareChanged: ShareChange }>(
        live,
        SHARE_CHANGED,
        { id },
        {
          onData: ({ shareChanged }) => {
            setLatest(shareChanged);
            // The status and progress show at once; the rest of the page is read again shortly.
            clearTimeout(refresh.current);
            refresh.current = setTimeout(share.reload, 200);
          },
          onCatchUp: share.reload,
        },
      ),
    [live, id, share.reload],
  );

  if (share.error && !share.data) return <ErrorText message={share.error} />;
  const data = share.data;
  if (!data) return <p class="loading">Loading…</p>;
  if (latest?.status === 'deleted') {
    return (
      <>
        <h1>{data.name || data.id}</h1>
        <p role="status">This share has been deleted.</p>
        <a href={hrefOf({ page: 'shares' })}>Back to the shares</a>
      </>
    );
  }
  const status = latest?.status ?? data.status;
  const progress = latest ? latest.progress : data.progress;
  return (
    <>
      <h1>{data.name || data.id}</h1>
      <Overview share={data} status={status} progress={progress} />
      <ExportLocations share={data} />
      <AccessRules share={data} reload={share.reload} />
      <Metadata share={data} reload={share.reload} />
      <Snapshots share={data} reload={share.reload} />
      <Replicas share={data} reload={share.reload} />
      <Section id="affinity" title="Placement links">
        <AffinityGraph share={data} />
      </Section>
      <Section id="timeline" title="History">
        <Timeline events={data.events} />
      </Section>
    </>
  );
};

const Overview = ({
  share,
  status,
  progress,
}: {
  share: ShareDetail;
  status: string;
  progress: string | null;
}) => {
  const { api, can } = useCaller();
  const remove = useAction();
  return (
    <Section id="overview" title="Overview">
      <dl class="facts">
        <dt>Status</dt>
        <dd aria-live="polite" data-testid="share-status">
          <Status status={status} />
        </dd>
        {progress !== null && (
          <>
            <dt>Progress</dt>
            <dd>
              <Progress progress={progress} label="Share progress" />
            </dd>
          </>
        )}
        <dt>Size</dt>
        <dd>{share.size} GiB</dd>
        <dt>Protocol</dt>
        <dd>{share.shareProto}</dd>
        <dt>Zone</dt>
        <dd>{share.availabilityZone}</dd>
        <dt>Type</dt>
        <dd>{share.shareTypeName}</dd>
        {share.replicationType && (
          <>
            <dt>Replication</dt>
            <dd>{share.replicationType}</dd>
          </>
        )}
        {share.snapshotId && (
          <>
            <dt>From snapshot</dt>
            <dd>{share.snapshotId}</dd>
          </>
        )}
        {share.host && (
          <>
            <dt>Host</dt>
            <dd>{share.host}</dd>
          </>
        )}
        <dt>ID</dt>
        <dd>
          <code>{share.id}</code>
        </dd>
        <dt>Created</dt>
        <dd>{when(share.createdAt)}</dd>
      </dl>
      {can('share:delete') && (
        <button
          type="button"
          class="danger"
          disabled={remove.busy}
          onClick={() =>
            void remove
              .run(() => api.rest('DELETE', `/v2/shares/${share.id}`))
              .then((ok) => ok && navigate(hrefOf({ page: 'shares' })))
          }
        >
          Delete share
        </button>
      )}
      <ErrorText message={remove.error} />
    </Section>
  );
};

const ExportLocations = ({ share }: { share: ShareDetail }) => (
  <Section id="exports" title="Export locations">
    {share.exportLocations.length === 0 ? (
      <p>None yet.</p>
    ) : (
      <ul class="plain">
        {share.exportLocations.map((location) => (
          <li key={location.id}>
            <code>{location.path}</code> {location.preferred && <em>(preferred)</em>}{' '}
            <CopyButton text={location.path} label={`Copy ${location.path}`} />
          </li>
        ))}
      </ul>
    )}
  </Section>
);

const AccessRules = ({ share, reload }: { share: ShareDetail; reload: () => void }) => {
  const { api, can } = useCaller();
  const action = useAction();
  const act = (body: unknown) =>
    void action
      .run(() => api.rest('POST', `/v2/shares/${share.id}/action`, body))
      .then((ok) => ok && reload());
  const allow = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    act({
      allow_access: {
        access_type: String(form.get('access_type')),
        access_to: String(form.get('access_to')).trim(),
        access_level: String(form.get('access_level')),
      },
    });
  };
  return (
    <Section id="access" title="Access rules">
      <p>
        Rules status: <Status status={share.accessRulesStatus} />
      </p>
      {share.accessRules.length > 0 && (
        <Table columns={['Type', 'To', 'Level', 'State', can('share:deny_access') && 'Actions']}>
          {share.accessRules.map((rule) => (
            <tr key={rule.id}>
              <td>{rule.accessType}</td>
              <td>
                <code>{rule.accessTo}</code>
              </td>
              <td>{rule.accessLevel}</td>
              <td>
                <Status status={rule.state} />
              </td>
              {can('share:deny_access') && (
                <td>
                  <button
                    type="button"
                    class="small danger"
                    disabled={action.busy}
                    aria-label={`Deny access to ${rule.accessTo}`}
                    onClick={() => act({ deny_access: { access_id: rule.id } })}
                  >
                    Deny
                  </button>
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
      {can('share:allow_access') && (
        <form class="inline-form" aria-label="Allow access" onSubmit={allow}>
          <label>
            Type
            <select name="access_type">
              <option>ip</option>
              <option>user</option>
              <option>cert</option>
              <option>cephx</option>
            </select>
          </label>
          <label>
            To
            <input name="access_to" required placeholder="10.0.0.0/24" />
          </label>
          <label>
            Level
            <select name="access_level">
              <option>rw</option>
              <option>ro</option>
            </select>
          </label>
          <button type="submit" disabled={action.busy}>
            Allow access
          </button>
        </form>
      )}
      <ErrorText message={action.error} />
    </Section>
  );
};

const Metadata = ({ share, reload }: { share: ShareDetail; reload: () => void }) => {
  const { api, can } = useCaller();
  const action = useAction();
  const entries = share.metadata.filter((entry) => !isInternalMetadata(entry.key));
  const add = (event: Event) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const key = String(form.get('key')).trim();
    void action
      .run(() =>
        api.rest('POST', `/v2/shares/${share.id}/metadata`, {
          metadata: { [key]: String(form.get('value')) },
        }),
      )
      .then((ok) => {
        if (!ok) return;
        formElement.reset();
        reload();
      });
  };
  return (
    <Section id="metadata" title="Metadata">
      {entries.length === 0 ? (
        <p>None.</p>
      ) : (
        <dl class="facts">
          {entries.map((entry) => (
            <>
              <dt key={`k-${entry.key}`}>{entry.key}</dt>
              <dd key={`v-${entry.key}`}>
                {entry.value}{' '}
                {can('share:delete_share_metadata') && (
                  <button
                    type="button"
                    class="small secondary"
                    aria-label={`Remove metadata ${entry.key}`}
                    onClick={() =>
                      void action
                        .run(() =>
                          api.rest(
                            'DELETE',
                            `/v2/shares/${share.id}/metadata/${encodeURIComponent(entry.key)}`,
                          ),
                        )
                        .then((ok) => ok && reload())
                    }
                  >
                    Remove
                  </button>
                )}
              </dd>
            </>
          ))}
        </dl>
      )}
      {can('share:update_share_metadata') && (
        <form class="inline-form" aria-label="Set metadata" onSubmit={add}>
          <label>
            Key
            <input name="key" required />
          </label>
          <label>
            Value
            <input name="value" />
          </label>
          <button type="submit" disabled={action.busy}>
            Set
          </button>
        </form>
      )}
      <ErrorText message={action.error} />
    </Section>
  );
};

const Snapshots = ({ share, reload }: { share: ShareDetail; reload: () => void }) => {
  const { api, can } = useCaller();
  const action = useAction();
  const writes = can('share:create') || can('share:delete_snapshot');
  const take = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const name = String(form.get('name')).trim();
    void action
      .run(() =>
        api.rest('POST', '/v2/snapshots', {
          snapshot: { share_id: share.id, ...(name && { name }) },
        }),
      )
      .then((ok) => ok && reload());
  };
  return (
    <Section id="snapshots" title="Snapshots">
      {share.snapshots.length === 0 ? (
        <p>None.</p>
      ) : (
        <Table columns={['Name', 'Status', 'Size (GiB)', 'Created', writes && 'Actions']}>
          {share.snapshots.map((snapshot) => (
            <tr key={snapshot.id} data-snapshot-id={snapshot.id}>
              <td>{snapshot.name || snapshot.id}</td>
              <td>
                <Status status={snapshot.status} />{' '}
                {snapshot.status !== 'available' && (
                  <Progress progress={snapshot.progress} label="Snapshot progress" />
                )}
              </td>
              <td>{snapshot.size}</td>
              <td>{when(snapshot.createdAt)}</td>
              {writes && (
                <td>
                  <div class="actions">
                    {can('share:create') && snapshot.status === 'available' && (
                      <a
                        class="button small"
                        href={hrefOf({ page: 'create', snapshotId: snapshot.id })}
                        aria-label={`Create a share from snapshot ${snapshot.name || snapshot.id}`}
                      >
                        New share from it
                      </a>
                    )}
                    {can('share:delete_snapshot') && (
                      <button
                        type="button"
                        class="small danger"
                        disabled={action.busy}
                        aria-label={`Delete snapshot ${snapshot.name || snapshot.id}`}
                        onClick={() =>
                          void action
                            .run(() => api.rest('DELETE', `/v2/snapshots/${snapshot.id}`))
                            .then((ok) => ok && reload())
                        }
                      >
                        Delete
                      </button>
                    )}
                  </div>
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
      {can('share:create_snapshot') && (
        <form class="inline-form" aria-label="Take a snapshot" onSubmit={take}>
          <label>
            Snapshot name
            <input name="name" />
          </label>
          <button type="submit" disabled={action.busy}>
            Take snapshot
          </button>
        </form>
      )}
      <ErrorText message={action.error} />
    </Section>
  );
};

const Replicas = ({ share, reload }: { share: ShareDetail; reload: () => void }) => {
  const { api, can } = useCaller();
  const action = useAction();
  const writes = can('share_replica:promote') || can('share_replica:resync');
  const zones = useLoad(
    () => api.rest<{ availability_zones: ZoneView[] }>('GET', '/v2/availability-zones'),
    [],
  );
  if (!share.replicationType) return null;
  const replicaAction = (id: string, name: 'promote' | 'resync') =>
    void action
      .run(() => api.rest('POST', `/v2/share-replicas/${id}/action`, { [name]: {} }))
      .then((ok) => ok && reload());
  const add = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const zone = String(form.get('availability_zone'));
    void action
      .run(() =>
        api.rest('POST', '/v2/share-replicas', {
          share_replica: { share_id: share.id, ...(zone && { availability_zone: zone }) },
        }),
      )
      .then((ok) => ok && reload());
  };
  return (
    <Section id="replicas" title="Replicas">
      <Table columns={['Replica', 'Zone', 'Status', 'Replica state', writes && 'Actions']}>
        {share.replicas.map((replica) => (
          <tr key={replica.id} data-replica-id={replica.id}>
            <td>
              <code>{replica.id.slice(0, 8)}</code>
            </td>
            <td>{replica.availabilityZone}</td>
            <td>
              <Status status={replica.status} />{' '}
              {replica.status !== 'available' && (
                <Progress progress={replica.progress} label="Replica progress" />
              )}
            </td>
            <td>
              <Status status={replica.replicaState} />
            </td>
            {writes && (
              <td>
                <div class="actions">
                  {replica.replicaState !== 'active' && can('share_replica:promote') && (
                    <button
                      type="button"
                      class="small"
                      disabled={action.busy}
                      aria-label={`Promote replica in ${replica.availabilityZone ?? 'its zone'}`}
                      onClick={() => replicaAction(replica.id, 'promote')}
                    >
                      Promote
                    </button>
                  )}
                  {replica.replicaState !== 'active' && can('share_replica:resync') && (
                    <button
                      type="button"
                      class="small secondary"
                      disabled={action.busy}
                      aria-label={`Resync replica in ${replica.availabilityZone ?? 'its zone'}`}
                      onClick={() => replicaAction(replica.id, 'resync')}
                    >
                      Resync
                    </button>
                  )}
                </div>
              </td>
            )}
          </tr>
        ))}
      </Table>
      {can('share_replica:create') && (
        <form class="inline-form" aria-label="Add a replica" onSubmit={add}>
          <label>
            Zone
            <select name="availability_zone">
              <option value="">any</option>
              {zones.data?.availability_zones.map((z) => (
                <option key={z.name}>{z.name}</option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={action.busy}>
            Add replica
          </button>
        </form>
      )}
      <ErrorText message={action.error} />
    </Section>
  );
};
