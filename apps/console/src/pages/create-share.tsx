import { useState } from 'preact/hooks';
import type { ShareTypeView, ShareView, SnapshotView, ZoneView } from '../api/shares';
import { useCaller } from '../caller';
import { ErrorText } from '../components/common';
import { useAction, useLoad } from '../hooks';
import { hrefOf } from '../lib/route';
import { navigate } from '../routing';

/** A list of the user's shares to pick several from (the ids a scheduler hint names). */
const SharesChoice = ({
  label,
  shares,
  onChange,
}: {
  label: string;
  shares: readonly ShareView[];
  onChange: (ids: string[]) => void;
}) => (
  <label>
    {label}
    <select
      multiple
      size={4}
      onChange={(e) => onChange([...e.currentTarget.selectedOptions].map((o) => o.value))}
    >
      {shares.map((s) => (
        <option key={s.id} value={s.id}>
          {s.name || s.id}
        </option>
      ))}
    </select>
  </label>
);

/** POST /v2/shares: type, zone, size, protocol, affinity hints among the user's shares, a snapshot. */
export const CreateShare = ({ snapshotId }: { snapshotId: string | undefined }) => {
  const { api } = useCaller();
  const types = useLoad(() => api.rest<{ share_types: ShareTypeView[] }>('GET', '/v2/types'), []);
  const zones = useLoad(
    () => api.rest<{ availability_zones: ZoneView[] }>('GET', '/v2/availability-zones'),
    [],
  );
  const shares = useLoad(
    () =>
      api.rest<{ shares: ShareView[] }>(
        'GET',
        '/v2/shares/detail?limit=200&sort_key=name&sort_dir=asc',
      ),
    [],
  );
  const snapshots = useLoad(
    () => api.rest<{ snapshots: SnapshotView[] }>('GET', '/v2/snapshots/detail?status=available'),
    [],
  );
  const [sameHost, setSameHost] = useState<string[]>([]);
  const [differentHost, setDifferentHost] = useState<string[]>([]);
  const [fromSnapshot, setFromSnapshot] = useState(snapshotId ?? '');
  const action = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const hints = {
      ...(sameHost.length > 0 && { same_host: sameHost.join(',') }),
      ...(differentHost.length > 0 && { different_host: differentHost.join(',') }),
    };
    const share = {
      share_proto: text('share_proto'),
      size: Number(text('size')),
      ...(text('name') && { name: text('name') }),
      ...(text('description') && { description: text('description') }),
      ...(text('share_type') && { share_type: text('share_type') }),
      ...(text('availability_zone') && { availability_zone: text('availability_zone') }),
      ...(fromSnapshot && { snapshot_id: fromSnapshot }),
      ...(Object.keys(hints).length > 0 && { scheduler_hints: hints }),
    };
    let createdId: string | undefined;
    const ok = await action.run(async () => {
      const created = await api.rest<{ share: { id: string } }>('POST', '/v2/shares', { share });
      createdId = created.share.id;
    });
    if (ok && createdId) navigate(hrefOf({ page: 'share', id: createdId }));
  };

  const source = snapshots.data?.snapshots.find((s) => s.id === fromSnapshot);
  const shareOptions = shares.data?.shares ?? [];
  return (
    <>
      <h1>Create a share</h1>
      <form class="card form" aria-label="Create a share" onSubmit={(e) => void submit(e)}>
        <label>
          Name
          <input name="name" />
        </label>
        <label>
          Description
          <input name="description" />
        </label>
        <label>
          Protocol
          <select name="share_proto" defaultValue="NFS">
            <option>NFS</option>
            <option>CIFS</option>
          </select>
        </label>
        <label>
          Size (GiB)
          <input
            name="size"
            type="number"
            min={1}
            required
            defaultValue={String(source?.size ?? 1)}
            key={source?.id}
          />
        </label>
        <label>
          From snapshot
          <select value={fromSnapshot} onChange={(e) => setFromSnapshot(e.currentTarget.value)}>
            <option value="">none (an empty share)</option>
            {snapshots.data?.snapshots.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name || s.id} ({s.size} GiB)
              </option>
            ))}
          </select>
        </label>
        <label>
          Share type
          <select name="share_type">
            <option value="">{fromSnapshot ? "the source share's" : 'the default'}</option>
            {types.data?.share_types.map((t) => (
              <option key={t.id} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Availability zone
          <select name="availability_zone">
            <option value="">{fromSnapshot ? "the source share's" : 'any'}</option>
            {zones.data?.availability_zones.map((z) => (
              <option key={z.name}>{z.name}</option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Placement hints</legend>
          <SharesChoice
            label="Place with (same host as)"
            shares={shareOptions}
            onChange={setSameHost}
          />
          <SharesChoice
            label="Place apart from (different host than)"
            shares={shareOptions}
            onChange={setDifferentHost}
          />
        </fieldset>
        <ErrorText message={action.error ?? types.error ?? shares.error} />
        <button type="submit" disabled={action.busy}>
          Create
        </button>
      </form>
    </>
  );
};
