import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ClientNats, ServerNats } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { lastValueFrom } from 'rxjs';
import type { BackendStatsReport } from '#hawser/drivers';
import type { CapabilityReports } from './capability-reports.js';

/** The NATS subject (a Nest event pattern) that carries pool capability reports. */
export const CAPABILITY_REPORTS_SUBJECT = 'hawser.capability-reports';

export interface NatsConnectionOptions {
  /** The NATS servers (NATS_URL, comma-separated for several). */
  readonly servers: readonly string[];
  /** Names the connections in NATS monitoring (`hawser-scheduler`, `hawser-node-a`, ...). */
  readonly name: string;
}

type ReportHandler = (report: BackendStatsReport) => void;

const isReport = (value: unknown): value is BackendStatsReport => {
  const report = value as Partial<BackendStatsReport> | null;
  return (
    typeof report === 'object' &&
    report !== null &&
    typeof report.backend === 'string' &&
    typeof report.availabilityZone === 'string' &&
    Array.isArray(report.pools)
  );
};

/**
 * Capability reports over NATS with Nest's NATS transport. Share nodes `emit` each report as
 * a Nest event (ClientNats); a process that subscribes receives them through a ServerNats
 * event handler on the same subject, without a queue group, so every scheduler sees every
 * report. The NATS subscription opens on the first `subscribe`, so share nodes, which only
 * publish, receive nothing. Reports are telemetry: one lost while NATS is away is replaced
 * by the next.
 */
export class NatsCapabilityReports
  implements CapabilityReports, OnModuleInit, OnApplicationShutdown
{
  private readonly logger = new Logger('capability-reports');
  private readonly handlers = new Set<ReportHandler>();
  private readonly client: ClientNats;
  private readonly server: ServerNats;
  private listening: Promise<void> | undefined;
  private closed = false;
  private status = 'disconnected';

  constructor(options: NatsConnectionOptions) {
    // Keep reconnecting for as long as the process lives (the client's default gives up).
    const connection = { servers: [...options.servers], maxReconnectAttempts: -1 };
    this.client = new ClientNats({ ...connection, name: `${options.name}-publisher` });
    this.server = new ServerNats({ ...connection, name: `${options.name}-subscriber` });
    this.client.status.subscribe((status) => (this.status = status));
    this.server.addHandler(
      CAPABILITY_REPORTS_SUBJECT,
      async (data: unknown) => this.deliver(data),
      true,
    );
  }

  /** Connects at start-up, so an unreachable NATS_URL stops the process at once. */
  async onModuleInit(): Promise<void> {
    await this.client.connect();
    await this.listening;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /** Whether reports can be published now (false while NATS is away and being reconnected). */
  get connected(): boolean {
    return !this.closed && this.status === 'connected';
  }

  async publish(report: BackendStatsReport): Promise<void> {
    if (this.closed) return;
    await lastValueFrom(this.client.emit(CAPABILITY_REPORTS_SUBJECT, report), {
      defaultValue: undefined,
    });
  }

  subscribe(handler: ReportHandler): () => void {
    this.handlers.add(handler);
    if (this.listening === undefined) {
      this.listening = this.listen();
      // Awaited by onModuleInit; a failure stops the start-up there, not as an unhandled rejection.
      this.listening.catch(() => undefined);
    }
    return () => this.handlers.delete(handler);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handlers.clear();
    await this.listening?.catch(() => undefined);
    await Promise.all([this.client.close(), this.server.close()]);
  }

  private async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      this.server.listen((error?: unknown) => (error ? reject(error) : resolve())),
    );
    // The subscription is in place on the server once this round trip returns.
    await this.server.unwrap<NatsConnection>().flush();
  }

  private deliver(data: unknown): void {
    if (!isReport(data)) {
      this.logger.warn(`ignored a malformed capability report on ${CAPABILITY_REPORTS_SUBJECT}`);
      return;
    }
    for (const handler of this.handlers) handler(data);
  }
}
