import type { DriverRegistry, SimulatedShareDriver } from '#hawser/drivers';
import { DRIVER_REGISTRY } from '../../../share-node/src/share-node.service.js';
import { eventually, type HawserTestServer } from './hawser-test-server.js';

export interface InstanceView {
  readonly id: string;
  readonly status: string;
  readonly host: string;
  readonly replica_state: string | null;
}

/** What a share and its children look like once nothing on it is in progress. */
export interface ShareWorld {
  readonly share: { readonly size: number; readonly status: string; readonly name: string } | null;
  readonly instances: readonly InstanceView[];
  readonly snapshots: readonly { id: string; name: string; status: string; size: number }[];
  readonly rules: readonly { id: string; access_to: string; state: string }[];
  readonly usage: Readonly<Record<string, number>>;
}

const BUSY = new Set([
  'creating',
  'deleting',
  'extending',
  'shrinking',
  'replication_change',
  'creating_from_snapshot',
]);
const SETTLED_RULE = new Set(['active', 'error']);
const QUOTA_KEYS = [
  'shares',
  'gigabytes',
  'share_replicas',
  'replica_gigabytes',
  'snapshots',
  'snapshot_gigabytes',
] as const;

/** Readings of a share that keeps changing before giving up (a test never waits forever). */
const MAX_READINGS = 50;

/** The global position of the share stream's last event (0 before its first). */
const lastPositionOf = async (hawser: HawserTestServer, shareId: string): Promise<number> => {
  const stream = `/hawser/v1/streams/share-${shareId}?direction=backwards&limit=1`;
  return ((await hawser.request('GET', stream)).body.events?.[0]?.position as number) ?? 0;
};

/** Waits until every read model has read the share's stream up to `position`. */
const readModelsCaughtUp = async (hawser: HawserTestServer, position: number): Promise<void> => {
  await eventually(
    async () => {
      const listed = (await hawser.request('GET', '/hawser/v1/projections')).body.projections;
      return (listed as { position: number }[]).every((p) => p.position >= position)
        ? true
        : undefined;
    },
    10_000,
    'the read models to catch up',
    20,
  );
};

/** One reading of the share and its children, each read model at least at `position`. */
const readOnce = async (
  hawser: HawserTestServer,
  shareId: string,
  projectId: string,
  token: string,
  position: number,
): Promise<ShareWorld> => {
  await readModelsCaughtUp(hawser, position);
  const shown = await hawser.request('GET', `/v2/shares/${shareId}`);
  const quota = await hawser.request('GET', `/v2/quota-sets/${projectId}/detail`);
  const set = quota.body.quota_set as Record<string, { in_use: number }>;
  const usage = Object.fromEntries(QUOTA_KEYS.map((key) => [key, set[key]?.in_use ?? -1]));
  if (shown.status === 404) {
    return { share: null, instances: [], snapshots: [], rules: [], usage };
  }
  const share = shown.body.share as { size: number; status: string; name: string };
  // A share deleted between these reads lists no children.
  const instances = ((await hawser.request('GET', `/v2/shares/${shareId}/instances`)).body
    .share_instances ?? []) as InstanceView[];
  const snapshots =
    (await hawser.request('GET', `/v2/snapshots/detail?share_id=${shareId}`, undefined, { token }))
      .body.snapshots ?? [];
  const rules =
    (
      await hawser.request('GET', `/v2/share-access-rules?share_id=${shareId}`, undefined, {
        token,
      })
    ).body.access_list ?? [];
  return { share, instances, snapshots, rules, usage };
};

/**
 * Reads one share's state over HTTP once the read models have caught up with its stream: the
 * admin's view of it, the owner's of its children. The share and its children are read one
 * after another, so a reading the stream moved under is torn (a share still at its old size
 * beside instances already resized) and is read again, until no event came in between.
 */
export const readShareWorld = async (
  hawser: HawserTestServer,
  shareId: string,
  projectId: string,
  token: string,
): Promise<ShareWorld> => {
  let position = await lastPositionOf(hawser, shareId);
  for (let reading = 0; reading < MAX_READINGS; reading += 1) {
    const world = await readOnce(hawser, shareId, projectId, token, position);
    const after = await lastPositionOf(hawser, shareId);
    if (after === position) return world;
    position = after;
  }
  throw new Error(`share ${shareId} kept changing through ${MAX_READINGS} readings`);
};

/** How many user messages name the share or one of its instances. */
export const messagesAbout = async (
  hawser: HawserTestServer,
  shareId: string,
  world: ShareWorld,
): Promise<number> => {
  let messages = 0;
  for (const id of [shareId, ...world.instances.map((i) => i.id)]) {
    const listed = await hawser.request('GET', `/v2/messages?resource_id=${id}`);
    messages += ((listed.body.messages ?? []) as unknown[]).length;
  }
  return messages;
};

/** Nothing on the share (its instances, snapshots and rules) is in progress any more. */
export const isSettled = (world: ShareWorld): boolean =>
  world.share === null ||
  (!BUSY.has(world.share.status) &&
    world.instances.every((i) => !BUSY.has(i.status)) &&
    world.snapshots.every((s) => !BUSY.has(s.status)) &&
    world.rules.every((r) => SETTLED_RULE.has(r.state)));

/** Polls the share until it has settled. */
export const settledShareWorld = (
  hawser: HawserTestServer,
  shareId: string,
  projectId: string,
  token: string,
  timeoutMs = 60_000,
): Promise<ShareWorld> =>
  eventually(
    async () => {
      const world = await readShareWorld(hawser, shareId, projectId, token);
      return isSettled(world) ? world : undefined;
    },
    timeoutMs,
    `share ${shareId} to settle`,
    200,
  );

/** The quota a project should use for what exists of its one (replicated) share. */
export const usageOf = (world: ShareWorld): Record<string, number> => {
  const size = world.share?.size ?? 0;
  return {
    shares: world.share ? 1 : 0,
    gigabytes: size,
    share_replicas: world.instances.length,
    replica_gigabytes: world.instances.length * size,
    snapshots: world.snapshots.length,
    snapshot_gigabytes: world.snapshots.reduce((sum, s) => sum + s.size, 0),
  };
};

/** The simulated back ends' own record of an instance: its size on the driver, if it has one. */
export const driverSizes = (
  hawser: HawserTestServer,
  instances: readonly { id: string; host: string }[],
): Record<string, number | null> => {
  const registry = hawser.app.get<symbol, DriverRegistry>(DRIVER_REGISTRY, { strict: false });
  return Object.fromEntries(
    instances.map((i) => {
      const driver = i.host && registry.has(i.host) ? registry.get(i.host) : undefined;
      const view = (driver as SimulatedShareDriver | undefined)?.inspectShare(i.id);
      return [i.id, view?.sizeGiB ?? null];
    }),
  );
};
