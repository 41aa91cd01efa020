import { Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  badRequest,
  forbiddenError,
  pythonInt,
  pythonText,
  toBoolean,
} from '#hawser/api-contracts';
import {
  countingNothing,
  DomainError,
  growthTo,
  requestHolding,
  type ShareCommand,
} from '#hawser/domain';
import { faultInjectionPoint } from '../fault-injection.js';
import { QuotaReservations, quotaSubjectsOf } from '../quotas/quota-reservations.js';
import { atLeast, type Requester } from '../requester.js';
import { ShareChanges } from './share-changes.js';
import { ShareReads } from './share-reads.js';

/**
 * An extend's or a shrink's argument as the request gave it (`{"new_size": 2, "force": true}`):
 * read once the share is found, as Manila reads it (`_get_valid_extend_parameters`).
 */
export type ResizeArgument = unknown;

/** The `extend` action (reference 3.4): a bigger share, counted against the quota first. */
export class ExtendShare extends Command<void> {
  constructor(
    readonly shareId: string,
    readonly request: ResizeArgument,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** The `shrink` action (reference 3.4): the quota counts less once the node has shrunk it. */
export class ShrinkShare extends Command<void> {
  constructor(
    readonly shareId: string,
    readonly request: ResizeArgument,
    readonly requester: Requester,
  ) {
    super();
  }
}

/**
 * extend / shrink. A non-forced extend waits for the scheduler's capacity check on the share's
 * pool (reference 6.9) before the node extends; an admin's `force` (2.64) skips it. A shrink goes
 * straight to the node.
 */
@Injectable()
export class ShareResize {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
    private readonly quotas: QuotaReservations,
  ) {}

  async resize(
    shareId: string,
    direction: 'extend' | 'shrink',
    argument: ResizeArgument,
    requester: Requester,
  ): Promise<void> {
    const share = await this.shares.findFor(shareId, requester);
    const { newSize, forced } = resizeRequestOf(argument, direction, requester);
    if (forced) requester.policy.enforce('share:force_extend');
    // One command id for the quota and the share, so the outcome finds the extend's adjustment.
    const commandContext = requester.commandContext();
    const command: ShareCommand = {
      type: 'ResizeShare',
      direction,
      newSize,
      capacityCheck: direction === 'extend' && !forced,
      now: new Date().toISOString(),
    };
    // What an extend needs counted on the share it is decided on (the share may change between
    // the read and the decision: a replica deleted, another resize).
    const needed = growthTo(newSize, share.replication_type !== null);
    // An extend counts its gigabytes before it starts (and gives them back if it is refused); a
    // shrink counts fewer once it has succeeded (the quota-release process manager).
    if (direction !== 'extend') {
      await this.changes.run(share.id, command, commandContext);
      return;
    }
    if (newSize <= share.size || share.status !== 'available') {
      // Refused as the share reads now; an extend the share's newer revision would take was
      // counted for nothing, so it is refused as a conflict rather than recorded uncounted.
      await this.changes.run(share.id, command, commandContext, {
        counted: countingNothing(needed),
      });
      return;
    }
    // Whatever the decision refuses is refused before anything is counted.
    await this.changes.decideOnly(share.id, command);
    const folded = await this.shares.folded(share.id);
    // Nothing counted for a share gone meanwhile: its decision refuses the extend.
    const deltas = folded ? needed(folded) : {};
    const resize = async () => {
      await this.changes.run(share.id, command, commandContext, {
        counted: { counted: deltas, needed },
        decider: requestHolding(commandContext.commandId),
      });
      faultInjectionPoint('after-request-recorded:extend');
    };
    await this.quotas
      .adjustingFor({ ...quotaSubjectsOf(share), deltas, newSize }, commandContext, resize)
      .catch((error: unknown) => {
        // Manila answers the gigabytes quota of an extend with 403, not 413 (reference 3.4), and
        // in the exception's words alone: its API catches it, so no class name comes first.
        if (isOverGigabytesQuota(error)) {
          throw forbiddenError(error.message.replace(/^ShareSizeExceedsAvailableQuota: /, ''));
        }
        throw error;
      });
  }
}

/**
 * The new size and the force of an extend or a shrink, refused in Manila's words: the size as
 * Python's int() casts it, the force (an extend's, from 2.64; ignored before, as Manila drops
 * it) by oslo's strict bool_from_string when given at all, null included.
 */
const resizeRequestOf = (
  argument: ResizeArgument,
  direction: 'extend' | 'shrink',
  requester: Requester,
): { newSize: number; forced: boolean } => {
  const given: Record<string, unknown> =
    typeof argument === 'object' && argument !== null && !Array.isArray(argument)
      ? (argument as Record<string, unknown>)
      : {};
  const newSize = pythonInt(given.new_size);
  if (newSize === undefined) throw badRequest('New share size must be specified as an integer.');
  if (
    direction !== 'extend' ||
    !atLeast(requester.version, '2.64') ||
    !Object.hasOwn(given, 'force')
  ) {
    return { newSize, forced: false };
  }
  const forced = toBoolean(given.force);
  if (forced === undefined) {
    throw badRequest(`Invalid boolean force : ${pythonText(given.force)}`);
  }
  return { newSize, forced };
};

const isOverGigabytesQuota = (error: unknown): error is Error =>
  error instanceof DomainError &&
  error.kind === 'over_limit' &&
  error.message.startsWith('ShareSizeExceedsAvailableQuota');

@CommandHandler(ExtendShare)
export class ExtendShareHandler implements ICommandHandler<ExtendShare, void> {
  constructor(private readonly resize: ShareResize) {}

  execute({ shareId, request, requester }: ExtendShare): Promise<void> {
    return this.resize.resize(shareId, 'extend', request, requester);
  }
}

@CommandHandler(ShrinkShare)
export class ShrinkShareHandler implements ICommandHandler<ShrinkShare, void> {
  constructor(private readonly resize: ShareResize) {}

  execute({ shareId, request, requester }: ShrinkShare): Promise<void> {
    return this.resize.resize(shareId, 'shrink', request, requester);
  }
}
