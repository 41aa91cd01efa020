import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { badRequest, forbiddenError, ManilaHttpError } from '#hawser/api-contracts';
import {
  countingNothing,
  DomainError,
  growthTo,
  requestHolding,
  type ShareCommand,
} from '#hawser/domain';
import { QuotaReservations, quotaSubjectsOf } from '../quotas/quota-reservations.js';
import type { Requester } from '../requester.js';
import { SnapshotReads } from '../snapshots/snapshot-reads.js';
import { ShareChanges } from './share-changes.js';
import { ShareReads } from './share-reads.js';

/** The `revert` action (2.27): the share back to its latest snapshot. */
export class RevertShare extends Command<void> {
  constructor(
    readonly shareId: string,
    /** The action's argument as sent (`{"snapshot_id": ...}`). */
    readonly argument: unknown,
    readonly requester: Requester,
  ) {
    super();
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Manila's _validate_revert_parameters: the body's `snapshot_id`, present and not empty. */
const snapshotIdOf = (argument: unknown): string => {
  if (!isObject(argument)) throw badRequest('Revert entity not found in request body.');
  if (!('snapshot_id' in argument)) throw badRequest('Required parameter snapshot_id not found.');
  const id = argument.snapshot_id;
  if (!id) throw badRequest('Required parameter snapshot_id is empty.');
  if (typeof id !== 'string') throw badRequest(`Snapshot ${String(id)} could not be found.`);
  return id;
};

/**
 * The share must be visible (404), the snapshot too (Manila answers an unknown snapshot with
 * 400 here); the share decider then makes Manila's checks (capability, same share, states,
 * latest snapshot, access rules, the active replica). A revert to a larger snapshot counts the
 * extra gigabytes first, as Manila reserves them (403 over the quota); a smaller one counts
 * fewer once it has succeeded (the quota-release workflow).
 */
@CommandHandler(RevertShare)
export class RevertShareHandler implements ICommandHandler<RevertShare, void> {
  constructor(
    private readonly shares: ShareReads,
    private readonly snapshots: SnapshotReads,
    private readonly changes: ShareChanges,
    private readonly quotas: QuotaReservations,
  ) {}

  async execute({ shareId, argument, requester }: RevertShare): Promise<void> {
    const snapshotId = snapshotIdOf(argument);
    const share = await this.shares.findFor(shareId, requester);
    const snapshot = await this.snapshots
      .find(snapshotId, requester.caller)
      .catch((error: unknown) => {
        if (error instanceof ManilaHttpError && error.status === 404) {
          throw badRequest(error.message);
        }
        throw error;
      });
    const ctx = requester.commandContext();
    const command: ShareCommand = {
      type: 'RevertShareToSnapshot',
      snapshotId,
      now: new Date().toISOString(),
    };
    // What the revert counts on the share it is decided on, which may have changed since.
    const needed =
      snapshot.share_id === share.id
        ? growthTo(snapshot.size, share.replication_type !== null)
        : () => ({});
    const growth = snapshot.share_id === share.id ? snapshot.size - share.size : 0;
    if (growth <= 0) {
      await this.changes.run(share.id, command, ctx, {
        counted: countingNothing(needed),
      });
      return;
    }
    // Whatever the decision refuses is refused before anything is counted.
    await this.changes.decideOnly(share.id, command);
    const folded = await this.shares.folded(share.id);
    const deltas = folded ? needed(folded) : {};
    const revert = () =>
      this.changes.run(share.id, command, ctx, {
        counted: { counted: deltas, needed },
        decider: requestHolding(ctx.commandId),
      });
    await this.quotas
      .adjustingFor({ ...quotaSubjectsOf(share), deltas, newSize: snapshot.size }, ctx, revert)
      .catch((error: unknown) => {
        if (error instanceof DomainError && error.kind === 'over_limit') {
          throw forbiddenError(
            `Quota exceeded for ${share.project_id}. Reverting share ${share.id} to snapshot ${snapshotId} will increase the share's size by ${growth}G.`,
          );
        }
        throw error;
      });
  }
}
