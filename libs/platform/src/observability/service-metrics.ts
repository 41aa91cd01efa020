import { Gauge, Registry } from 'prom-client';
import type { ShareStatus } from '#hawser/domain';
import { processMetrics } from '#hawser/observability';
import { PARKED_EVENTS, type ParkedEvent } from '#hawser/process-managers';
import { SHARES } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import type { LogFollowerLag } from './log-follower-lag.js';

/** The statuses counted one by one; any other counts as `other`. */
const COUNTED_STATUSES = [
  'creating',
  'creating_from_snapshot',
  'available',
  'error',
  'deleting',
  'error_deleting',
  'inactive',
  'extending',
  'extending_error',
  'shrinking',
  'shrinking_error',
  'shrinking_possible_data_loss_error',
  'migrating',
  'migrating_to',
  'replication_change',
] as const satisfies readonly ShareStatus[];

/**
 * What one running service measures at scrape time (its followers' lag, parked events, shares
 * by status), rendered together with the process-wide instruments as Prometheus text.
 */
export class ServiceMetrics {
  private readonly registry = new Registry();
  private readonly lagEvents = this.gauge(
    'hawser_log_follower_lag_events',
    'Events in the log a projection or process manager has not dealt with yet',
    ['kind', 'name'],
  );
  private readonly lagSeconds = this.gauge(
    'hawser_log_follower_lag_seconds',
    'Age of the oldest event a projection or process manager has not dealt with (0: caught up)',
    ['kind', 'name'],
  );
  private readonly parked = this.gauge(
    'hawser_parked_events',
    'Events a process manager parked after its retries, by process manager',
    ['process_manager'],
  );
  private readonly shares = this.gauge('hawser_shares', 'Shares by status', ['status']);

  constructor(
    private readonly lag: LogFollowerLag,
    private readonly documents: DocumentStore,
  ) {}

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text of this process and service, measured now. */
  async render(): Promise<string> {
    await Promise.all([this.measureLag(), this.measureParked(), this.measureShares()]);
    return Registry.merge([processMetrics, this.registry]).metrics();
  }

  private async measureLag(): Promise<void> {
    this.lagEvents.reset();
    this.lagSeconds.reset();
    for (const follower of await this.lag.measure()) {
      const labels = { kind: follower.kind, name: follower.name };
      this.lagEvents.set(labels, follower.events);
      this.lagSeconds.set(labels, follower.seconds);
    }
  }

  private async measureParked(): Promise<void> {
    this.parked.reset();
    const parked = await this.documents.find<ParkedEvent>(PARKED_EVENTS, {});
    const counts = new Map<string, number>();
    for (const event of parked) {
      counts.set(event.processManager, (counts.get(event.processManager) ?? 0) + 1);
    }
    for (const [processManager, count] of counts) {
      this.parked.set({ process_manager: processManager }, count);
    }
  }

  private async measureShares(): Promise<void> {
    const counts = await Promise.all(
      COUNTED_STATUSES.map((status) => this.documents.count(SHARES, { status })),
    );
    const total = await this.documents.count(SHARES);
    this.shares.reset();
    COUNTED_STATUSES.forEach((status, i) => this.shares.set({ status }, counts[i] ?? 0));
    const counted = counts.reduce((sum, n) => sum + n, 0);
    this.shares.set({ status: 'other' }, Math.max(0, total - counted));
  }

  private gauge<Label extends string>(name: string, help: string, labelNames: Label[]) {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }
}
