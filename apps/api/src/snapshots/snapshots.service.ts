import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, faultInjectionPoint, ShareReads } from '#hawser/application';
import type { CreateSnapshotDto } from '#hawser/api-contracts';
import {
  requestHolding,
  shareDecider,
  shareStream,
  snapshotCreationDeltas,
  type Decider,
  type ShareCommand,
  type ShareEvent,
  type ShareState,
} from '#hawser/domain';
import { SNAPSHOTS, type SnapshotDocument } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE, READ_YOUR_WRITES, type ReadYourWrites } from '#hawser/platform';
import { commandContextOf } from '../http/command-context.js';
import { ManilaHttpError, notFoundError } from '../http/manila-error.js';
import { atLeast, type AuthContext, type RequestContext } from '../http/request-context.js';
import { QuotasService } from '../quota-sets/quotas.service.js';

/** The snapshot use cases: checks on the share, then one command on the share's stream. */
@Injectable()
export class SnapshotsService {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly commands: CommandHandler,
    private readonly shares: ShareReads,
    private readonly quotas: QuotasService,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
  ) {}

  /** A snapshot of the caller's project (any for admins); else 404 (reference 9.3). */
  async find(id: string, auth: AuthContext): Promise<SnapshotDocument> {
    const doc = await this.documents.get<SnapshotDocument>(SNAPSHOTS, id);
    if (!doc || doc.status === null || !(auth.isAdmin || doc.project_id === auth.projectId)) {
      throw notFoundError(`Snapshot ${id} could not be found.`);
    }
    return doc;
  }

  async create(
    dto: CreateSnapshotDto,
    ctx: RequestContext,
    auth: AuthContext,
  ): Promise<SnapshotDocument> {
    const share = await this.shares.find(dto.share_id, auth);
    if (!share.snapshot_support) {
      throw new ManilaHttpError(
        422,
        `Snapshots cannot be created for share '${share.id}' since it does not have that capability.`,
      );
    }
    const snapshotId = randomUUID();
    const request: ShareCommand = {
      type: 'RequestSnapshot',
      snapshotId,
      projectId: auth.projectId,
      userId: auth.userId,
      name: dto.display_name ?? dto.name ?? null,
      description: dto.display_description ?? dto.description ?? null,
      metadata: atLeast(ctx.microversion, '2.73') ? (dto.metadata ?? {}) : {},
      now: new Date().toISOString(),
    };
    // Whatever the decision refuses (metadata, status, ...) is refused before anything is counted.
    await this.commands.decideOnly(shareDecider, shareStream(share.id), request);
    // Counted against the caller's project, the snapshot's own (as Manila does).
    await this.quotas.reservingFor(
      auth.projectId,
      snapshotId,
      'snapshot',
      snapshotCreationDeltas(share.size),
      share.id,
      commandContextOf(ctx),
      async () => {
        await this.run(share.id, ctx, request, requestHolding(snapshotId));
        faultInjectionPoint('after-request-recorded:snapshot');
      },
    );
    return this.find(snapshotId, auth);
  }

  /** Runs a command on the snapshot's share and waits until the read models show it. */
  async run(
    shareId: string,
    ctx: RequestContext,
    command: ShareCommand,
    decider: Decider<ShareState, ShareCommand, ShareEvent> = shareDecider,
  ): Promise<void> {
    const result = await this.commands.handle(
      decider,
      shareStream(shareId),
      command,
      commandContextOf(ctx),
    );
    await this.readYourWrites.waitFor(result.position);
  }
}
