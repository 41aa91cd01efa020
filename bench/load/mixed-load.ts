import http from 'node:http';
import { percentile, round } from '../scheduler/bench-statistics.js';

/** One request's outcome: its operation, HTTP status and latency in ms. */
interface Outcome {
  readonly operation: Operation;
  /** The HTTP status; `404 deleted meanwhile` (or 400) for a share a concurrent client deleted. */
  readonly status: number | string;
  readonly ms: number;
}

const OPERATIONS = ['list', 'show', 'create', 'delete', 'allow'] as const;
type Operation = (typeof OPERATIONS)[number];

/** Operations with their weights: each request picks one in proportion. */
export type Mix = readonly (readonly [Operation, number])[];

/** Out of 100 requests: reads dominate, as on a control plane's API. */
export const DEFAULT_MIX: Mix = [
  ['list', 30],
  ['show', 40],
  ['create', 10],
  ['delete', 10],
  ['allow', 10],
];

/** A mix written `list:30,show:40,...`: an operation left out is never chosen. */
export const parseMix = (text: string): Mix => {
  const mix = text.split(',').map((part) => {
    const [name, weight] = part.split(':');
    const known = OPERATIONS.find((operation) => operation === name);
    const value = Number(weight);
    if (known === undefined || !(value >= 0)) {
      throw new Error(
        `--mix ${text}: each part is one of ${OPERATIONS.join(', ')}, a colon and a weight`,
      );
    }
    return [known, value] as const;
  });
  if (!mix.some(([, weight]) => weight > 0)) throw new Error(`--mix ${text}: no weight above 0`);
  return mix;
};

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

const operationOf = (mix: Mix): Operation => {
  let roll = Math.random() * mix.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [name, weight] of mix) {
    roll -= weight;
    if (roll < 0) return name;
  }
  return 'list';
};

/** The nearest-rank `q`th percentile of `latencies`, in their unit. */
const percentileOf = (latencies: readonly number[], q: number): number =>
  percentile(Float64Array.from(latencies).sort(), q);

/** The latencies and statuses of a span of the run. */
export class Tally {
  readonly latencies: number[] = [];
  readonly statuses = new Map<string, number>();
  private readonly byOperation = new Map<Operation, number[]>();

  add(outcome: Outcome): void {
    this.latencies.push(outcome.ms);
    const own = this.byOperation.get(outcome.operation);
    if (own) own.push(outcome.ms);
    else this.byOperation.set(outcome.operation, [outcome.ms]);
    const key = `${outcome.operation} ${outcome.status}`;
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
  }

  /** The latency below which `q` percent of the requests answered. */
  percentile(q: number): number {
    return percentileOf(this.latencies, q);
  }

  /** p50 and p99 of each operation: where the tail of the whole comes from. */
  byOperationPercentiles(): Record<string, { count: number; p50: number; p99: number }> {
    return Object.fromEntries(
      [...this.byOperation].map(([operation, latencies]) => [
        operation,
        {
          count: latencies.length,
          p50: round(percentileOf(latencies, 50), 1),
          p99: round(percentileOf(latencies, 99), 1),
        },
      ]),
    );
  }

  /** Requests answered with something else than 2xx, by operation and status. */
  failures(): Record<string, number> {
    return Object.fromEntries(
      [...this.statuses]
        .filter(([key]) => !/ 2\d\d$/.test(key))
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  }
}

/**
 * Keep-alive clients that each send one request after another, chosen by the mix, against one
 * project: listings and shows of its shares, creations, deletions of available shares and
 * access rules granted on them. An operation with nothing to work on (no available share to
 * show, delete or grant on) is a listing instead.
 */
export class MixedLoad {
  private readonly agent: http.Agent;
  private readonly url: URL;
  private readonly available: string[] = [];
  private readonly pending: string[] = [];
  private readonly deleted = new Set<string>();
  private stopping = false;

  constructor(
    base: string,
    private readonly clients: number,
    private readonly token: string,
    private readonly mix: Mix,
  ) {
    this.url = new URL(base);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  }

  /** A share type, no quota limits for the project, and `shares` available shares to work on. */
  async prepare(project: string, shares: number): Promise<void> {
    await this.send('POST', '/v2/types', {
      share_type: { name: 'default', extra_specs: { driver_handles_share_servers: 'false' } },
    });
    const unlimited = { shares: -1, gigabytes: -1, snapshots: -1, snapshot_gigabytes: -1 };
    const quota = await this.send('PUT', `/v2/quota-sets/${project}`, { quota_set: unlimited });
    if (quota.status !== 200) throw new Error(`quota not set: ${quota.status} ${quota.text}`);
    for (let i = 0; i < shares; i += 1) {
      const created = await this.create();
      if (created.status !== 200) throw new Error(`seed share not created: ${created.status}`);
    }
    for (let tries = 0; this.pending.length > 0; tries += 1) {
      if (tries > 600) throw new Error(`${this.pending.length} seed shares never became available`);
      for (const id of [...this.pending]) await this.show(id);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Runs the clients for `seconds`, handing each outcome to `record`. */
  async run(seconds: number, record: (outcome: Outcome) => void): Promise<void> {
    this.stopping = false;
    const timer = setTimeout(() => (this.stopping = true), seconds * 1000);
    await Promise.all(
      Array.from({ length: this.clients }, async () => {
        while (!this.stopping) {
          const chosen = operationOf(this.mix);
          const started = performance.now();
          const { status, operation: done } = await this.perform(chosen);
          record({ operation: done, status, ms: performance.now() - started });
        }
      }),
    );
    clearTimeout(timer);
  }

  close(): void {
    this.agent.destroy();
  }

  private async perform(
    chosen: Operation,
  ): Promise<{ status: number | string; operation: Operation }> {
    switch (chosen) {
      case 'create':
        return { status: (await this.create()).status, operation: chosen };
      case 'show': {
        const id = this.pending.length > 0 && Math.random() < 0.5 ? pick(this.pending) : undefined;
        const target = id ?? (this.available.length > 0 ? pick(this.available) : undefined);
        if (target !== undefined) {
          return { status: this.explained(await this.show(target), target), operation: chosen };
        }
        break;
      }
      case 'delete': {
        if (this.available.length === 0) break;
        const index = Math.floor(Math.random() * this.available.length);
        const id = this.available.splice(index, 1)[0] as string;
        this.deleted.add(id);
        const deleted = await this.send('DELETE', `/v2/shares/${id}`);
        return { status: deleted.status, operation: chosen };
      }
      case 'allow': {
        if (this.available.length === 0) break;
        const address = `10.${rand(256)}.${rand(256)}.${rand(254) + 1}`;
        const id = pick(this.available);
        const allowed = await this.send('POST', `/v2/shares/${id}/action`, {
          allow_access: { access_type: 'ip', access_to: address, access_level: 'rw' },
        });
        return { status: this.explained(allowed.status, id), operation: chosen };
      }
      case 'list':
        break;
    }
    const listed = await this.send('GET', '/v2/shares/detail?limit=50');
    return { status: listed.status, operation: 'list' };
  }

  /**
   * A 404 on a share another client deleted after this one picked it is the mix's own race, and
   * so is a 400 for a grant on a share whose deletion has begun (Manila refuses access changes
   * while an instance is `deleting`).
   */
  private explained(status: number, id: string): number | string {
    return (status === 404 || status === 400) && this.deleted.has(id)
      ? `${status} deleted meanwhile`
      : status;
  }

  private async create(): Promise<{ status: number }> {
    const created = await this.send('POST', '/v2/shares', {
      share: { share_proto: 'NFS', size: 1, share_type: 'default' },
    });
    if (created.status === 200) this.pending.push(JSON.parse(created.text).share.id as string);
    return created;
  }

  /** Shows a share, moving it from pending to available (or dropping it) as its status says. */
  private async show(id: string): Promise<number> {
    const shown = await this.send('GET', `/v2/shares/${id}`);
    const index = this.pending.indexOf(id);
    if (shown.status === 200 && index >= 0) {
      const status = JSON.parse(shown.text).share.status as string;
      if (status !== 'creating') this.pending.splice(index, 1);
      if (status === 'available') this.available.push(id);
    }
    return shown.status;
  }

  private send(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; text: string }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve) => {
      const request = http.request(
        {
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          agent: this.agent,
          headers: {
            'X-Auth-Token': this.token,
            'X-OpenStack-Manila-API-Version': '2.72',
            ...(payload && {
              'Content-Type': 'application/json',
              'Content-Length': Buffer.byteLength(payload),
            }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
          );
          // A connection closed half-way through the answer (its process died) counts as 0.
          response.on('close', () => {
            if (!response.complete) resolve({ status: 0, text: '' });
          });
        },
      );
      // A refused or broken connection counts as status 0.
      request.on('error', () => resolve({ status: 0, text: '' }));
      request.end(payload);
    });
  }
}

const rand = (below: number): number => Math.floor(Math.random() * below);
