import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import { RecycleBinExpiry } from '#hawser/process-managers';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE, HAWSER_CONFIG, ProjectorRole, type HawserConfig } from '#hawser/platform';

/**
 * Deletes shares whose HAWSER_SOFT_DELETE_RETENTION_S in the recycle bin has passed, in the
 * process that serves the shares API (the projector, among several): one pass at start, then
 * periodically (every half the retention time, at most 30 s).
 */
@Injectable()
export class RecycleBinExpiryWorkflow implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RecycleBinExpiry');
  private readonly expiry: RecycleBinExpiry;

  constructor(
    @Inject(DOCUMENT_STORE) documents: DocumentStore,
    @Inject(HAWSER_CONFIG) config: HawserConfig,
    commands: CommandHandler,
    private readonly role: ProjectorRole,
  ) {
    this.expiry = new RecycleBinExpiry(commands, documents, {
      pollIntervalMs: Math.min(Math.max((config.softDeleteRetentionS * 1000) / 2, 100), 30_000),
      onError: (error) =>
        this.logger.warn(`expiry pass failed, retried next pass: ${String(error)}`),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.role.whenActive(async () => this.expiry.start());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.expiry.stop();
  }
}
