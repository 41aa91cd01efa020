import http from 'node:http';

/** One project of the endpoint under test: its v2 URL, a token for it, its connections. */
export interface BenchProject {
  readonly base: string;
  readonly token: string;
  readonly agent: http.Agent;
}

/** An endpoint that speaks Manila's v2 API, and how to drive it. */
export interface BenchTarget {
  readonly name: string;
  /** Two availability zones of one replication domain: shares in the first, replicas in the second. */
  readonly zones: readonly [string, string];
  /** The projects `count` creates of one batch are spread over (to stay under the quotas). */
  projects(batch: string, count: number): BenchProject[];
  /** CPU seconds the server's processes used so far, when they are known. */
  cpuSeconds(): number | undefined;
  readonly pollMs: number;
}

export interface PhaseResult {
  readonly count: number;
  /** Until every request was answered. */
  readonly acceptedS: number;
  /** Until every resource was seen `available` (and `in_sync` for replicas). */
  readonly doneS: number;
  readonly cpuPerItemMs: number | undefined;
}

const MICROVERSION = '2.72';
const TIMEOUT_MS = 600_000;
const PAGE = 1000;
const SHARE_TYPE = 'bench';
const REPLICATED_TYPE = 'bench-replicated';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Keep-alive connections, at most `connections` at once: a thousand requests at once queue in
 * the client instead of opening a thousand connections (which time out on a loaded machine).
 */
export const keepAliveAgent = (connections: number) =>
  new http.Agent({ keepAlive: true, maxSockets: connections });

const call = (project: BenchProject, method: string, route: string, body?: unknown) =>
  new Promise<Json>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      `${project.base}/${route}`,
      {
        method,
        agent: project.agent,
        headers: {
          'X-Auth-Token': project.token,
          'X-OpenStack-Manila-API-Version': MICROVERSION,
          Accept: 'application/json',
          ...(payload !== undefined && {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(payload),
          }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(JSON.parse(text) as Json);
          else reject(new Error(`${method} ${route}: ${status} ${text}`));
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The two share types of the workload, created when the endpoint lacks them. */
export const ensureShareTypes = async (target: BenchTarget): Promise<void> => {
  const [admin] = target.projects('types', 1);
  if (admin === undefined) throw new Error(`${target.name} has no project`);
  const existing = await call(admin, 'GET', 'types?is_public=all');
  const names = new Set((existing.share_types as { name: string }[]).map((t) => t.name));
  const specs = { driver_handles_share_servers: 'false', snapshot_support: 'true' };
  for (const [name, extra] of [
    [SHARE_TYPE, {}],
    [REPLICATED_TYPE, { replication_type: 'readable' }],
  ] as const) {
    if (names.has(name)) continue;
    await call(admin, 'POST', 'types', {
      share_type: {
        name,
        'share_type_access:is_public': true,
        extra_specs: { ...specs, ...extra },
      },
    });
  }
};

/**
 * A detail list page by page until every pending id was seen or the list ends: Manila caps a
 * page at 1,000 (`common.limited`) whatever the `limit`, and its replica listing holds every
 * replica in the store. Hawser lists newest first, so a batch just made is on the first page.
 */
const listPending = async (
  project: BenchProject,
  route: string,
  key: string,
  pending: ReadonlySet<string>,
): Promise<Json[]> => {
  const items: Json[] = [];
  const separator = route.includes('?') ? '&' : '?';
  let unseen = pending.size;
  for (;;) {
    const page = (
      await call(project, 'GET', `${route}${separator}limit=${PAGE}&offset=${items.length}`)
    )[key] as Json[];
    items.push(...page);
    unseen -= page.filter((item) => pending.has(item.id as string)).length;
    if (page.length < PAGE || unseen <= 0) return items;
  }
};

/**
 * Polls each project's detail list (`route`, narrowed by name) until every id in it is done.
 * A resource in an error state fails the run: the figures would mean nothing.
 */
const waitUntilDone = async (
  target: BenchTarget,
  ids: ReadonlyMap<string, BenchProject>,
  route: string,
  key: string,
  isDone: (resource: Json) => boolean,
): Promise<void> => {
  const projects = [...new Set(ids.values())];
  const deadline = performance.now() + TIMEOUT_MS;
  const pending = new Set(ids.keys());
  while (pending.size > 0) {
    const lists = await Promise.all(projects.map((p) => listPending(p, route, key, pending)));
    for (const resource of lists.flat()) {
      if (!pending.has(resource.id as string)) continue;
      if (String(resource.status).startsWith('error')) {
        throw new Error(`${target.name}: ${key} ${resource.id} went to ${resource.status}`);
      }
      if (isDone(resource)) pending.delete(resource.id as string);
    }
    if (pending.size === 0) return;
    if (performance.now() > deadline) throw new Error(`${target.name}: ${pending.size} never done`);
    await sleep(target.pollMs);
  }
};

let batches = 0;
const batchName = () => `b${process.pid.toString(36)}${Date.now().toString(36)}${(batches += 1)}`;

/** `count` shares requested at once, then polled until all are `available`. */
export const createSharesAtOnce = async (
  target: BenchTarget,
  count: number,
  options: { shareType?: string; zone?: string } = {},
): Promise<PhaseResult & { ids: Map<string, BenchProject> }> => {
  const batch = batchName();
  const projects = target.projects(batch, count);
  const perProject = Math.ceil(count / projects.length);
  const cpuBefore = target.cpuSeconds();
  const started = performance.now();
  const created = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const project = projects[Math.floor(i / perProject)] as BenchProject;
      const share = {
        share_proto: 'NFS',
        size: 1,
        name: `${batch}-${i}`,
        share_type: options.shareType ?? SHARE_TYPE,
        ...(options.zone !== undefined && { availability_zone: options.zone }),
      };
      const body = await call(project, 'POST', 'shares', { share });
      return [body.share.id as string, project] as const;
    }),
  );
  const acceptedS = (performance.now() - started) / 1000;
  const ids = new Map(created);
  await waitUntilDone(
    target,
    ids,
    `shares/detail?name~=${batch}`,
    'shares',
    (share) => share.status === 'available',
  );
  return { ...finish(target, count, started, acceptedS, cpuBefore), ids };
};

/** `count` replicated shares in the first zone, then one replica each in the second at once. */
export const createReplicasAtOnce = async (
  target: BenchTarget,
  count: number,
): Promise<PhaseResult> => {
  const [first, second] = target.zones;
  const { ids: shares } = await createSharesAtOnce(target, count, {
    shareType: REPLICATED_TYPE,
    zone: first,
  });
  const cpuBefore = target.cpuSeconds();
  const started = performance.now();
  const created = await Promise.all(
    [...shares].map(async ([shareId, project]) => {
      const body = await call(project, 'POST', 'share-replicas', {
        share_replica: { share_id: shareId, availability_zone: second },
      });
      return [body.share_replica.id as string, project] as const;
    }),
  );
  const acceptedS = (performance.now() - started) / 1000;
  await waitUntilDone(
    target,
    new Map(created),
    'share-replicas/detail',
    'share_replicas',
    (replica) => replica.status === 'available' && replica.replica_state === 'in_sync',
  );
  return finish(target, count, started, acceptedS, cpuBefore);
};

const finish = (
  target: BenchTarget,
  count: number,
  started: number,
  acceptedS: number,
  cpuBefore: number | undefined,
): PhaseResult => {
  const doneS = (performance.now() - started) / 1000;
  const cpuAfter = target.cpuSeconds();
  const cpuPerItemMs =
    cpuBefore === undefined || cpuAfter === undefined
      ? undefined
      : ((cpuAfter - cpuBefore) * 1000) / count;
  return { count, acceptedS, doneS, cpuPerItemMs };
};
