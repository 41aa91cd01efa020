import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ManilaHttpError, type CreateSnapshotDto } from '#hawser/api-contracts';
import { requestHolding, snapshotCreationDeltas, type ShareCommand } from '#hawser/domain';
import type { SnapshotDocument } from '#hawser/projections';
import { timeOrderedId } from '../time-ordered-id.js';
import { faultInjectionPoint } from '../fault-injection.js';
import { QuotaReservations } from '../quotas/quota-reservations.js';
import { atLeast, type Requester } from '../requester.js';
import { ShareChanges } from '../shares/share-changes.js';
import { ShareReads } from '../shares/share-reads.js';
import { SnapshotReads } from './snapshot-reads.js';

/** POST /snapshots (reference 3.6): a snapshot of a share, counted against the quota first. */
export class CreateSnapshot extends Command<SnapshotDocument> {
  constructor(
    readonly request: CreateSnapshotDto,
    readonly requester: Requester,
  ) {
    super();
  }
}

@CommandHandler(CreateSnapshot)
export class CreateSnapshotHandler implements ICommandHandler<CreateSnapshot, SnapshotDocument> {
  constructor(
    private readonly shares: ShareReads,
    private readonly snapshots: SnapshotReads,
    private readonly changes: ShareChanges,
    private readonly quotas: QuotaReservations,
  ) {}

  async execute({ request: dto, requester }: CreateSnapshot): Promise<SnapshotDocument> {
    const auth = requester.caller;
    const share = await this.shares.findFor(dto.share_id, requester);
    if (!share.snapshot_support) {
      throw new ManilaHttpError(
        422,
        `Snapshots cannot be created for share '${share.id}' since it does not have that capability.`,
      );
    }
    const snapshotId = timeOrderedId();
    const request: ShareCommand = {
      type: 'RequestSnapshot',
      snapshotId,
      projectId: auth.projectId,
      userId: auth.userId,
      name: dto.display_name ?? dto.name ?? null,
      description: dto.display_description ?? dto.description ?? null,
      metadata: atLeast(requester.version, '2.73') ? (dto.metadata ?? {}) : {},
      now: new Date().toISOString(),
    };
    // Whatever the decision refuses (metadata, status, ...) is refused before anything is counted.
    await this.changes.decideOnly(share.id, request);
    const counted = snapshotCreationDeltas(share.size);
    // Counted against the caller's project, the snapshot's own (as Manila does).
    await this.quotas.reservingFor(
      {
        projectId: auth.projectId,
        userId: auth.userId,
        ...(share.share_type_id !== null && { shareTypeId: share.share_type_id }),
        holderId: snapshotId,
        holderKind: 'snapshot',
        deltas: counted,
      },
      share.id,
      requester.commandContext(),
      async () => {
        await this.changes.run(share.id, request, requester.commandContext(), {
          // A snapshot of a share resized meanwhile would count other gigabytes: 409.
          counted: { counted, needed: (decided) => snapshotCreationDeltas(decided.size) },
          decider: requestHolding(snapshotId),
        });
        faultInjectionPoint('after-request-recorded:snapshot');
      },
    );
    return this.snapshots.find(snapshotId, auth);
  }
}
