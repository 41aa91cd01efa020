import type { BackendStatsReport } from '#hawser/drivers';

/**
 * Pool capability reports travel from share nodes to schedulers. They are telemetry, not domain
 * facts, so they go over the transport (in process, or NATS) and never into the event log.
 */
export interface CapabilityReports {
  publish(report: BackendStatsReport): Promise<void>;
  /** Returns a function that stops the subscription. */
  subscribe(handler: (report: BackendStatsReport) => void): () => void;
}

export const CAPABILITY_REPORTS = Symbol('CAPABILITY_REPORTS');

/** Reports that travel over a connection (NATS), which readiness then depends on. */
export interface ConnectedCapabilityReports extends CapabilityReports {
  /** Whether reports can be published now (false while the connection is being restored). */
  readonly connected: boolean;
}

export const travelsOverConnection = (
  reports: CapabilityReports,
): reports is ConnectedCapabilityReports => 'connected' in reports;

/** The embedded default: scheduler and share nodes in one process. */
export class InProcessCapabilityReports implements CapabilityReports {
  private readonly handlers = new Set<(report: BackendStatsReport) => void>();

  async publish(report: BackendStatsReport): Promise<void> {
    for (const handler of this.handlers) handler(report);
  }

  subscribe(handler: (report: BackendStatsReport) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }
}
