import { Inject, Injectable, Logger, Optional, type OnApplicationShutdown } from '@nestjs/common';
import type { BackendStatsReport } from '#hawser/drivers';
import { PoolStateRegistry } from '#hawser/scheduler';
import {
  CAPABILITY_REPORTS,
  HAWSER_CONFIG,
  type CapabilityReports,
  type HawserConfig,
} from '#hawser/platform';
import type { PoolStateSource } from './pool-state.source.js';

/**
 * The API's own pool state when the scheduler runs in another process: it subscribes to the
 * capability reports the share nodes publish (NATS delivers every report to every subscriber)
 * and folds them the way the scheduler does. Placements are not debited here, so free capacity
 * is as last reported; without a transport (no NATS_URL) no pool is known.
 */
@Injectable()
export class ReportedPoolState implements PoolStateSource, OnApplicationShutdown {
  private readonly logger = new Logger('pool-state');
  readonly registry: PoolStateRegistry;
  readonly schedulerInProcess = false;
  private readonly unsubscribe: (() => void) | undefined;

  constructor(
    @Inject(HAWSER_CONFIG) config: HawserConfig,
    @Optional() @Inject(CAPABILITY_REPORTS) reports: CapabilityReports | undefined,
  ) {
    this.registry = new PoolStateRegistry({ serviceDownTimeMs: config.serviceDownTimeS * 1000 });
    this.unsubscribe = reports?.subscribe((report) => this.take(report));
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }

  /** As the scheduler: the report's own timestamp orders reports and dates liveness. */
  take(report: BackendStatsReport): void {
    const first = report.pools[0]?.capabilities.timestamp;
    const receivedAt = first ? Date.parse(first) : Date.now();
    try {
      this.registry.report(
        report.backend,
        report.pools.map((p) => p.capabilities),
        receivedAt,
        report.availabilityZone,
      );
    } catch (error) {
      this.logger.warn(`ignored the report of ${report.backend}: ${String(error)}`);
    }
  }
}
