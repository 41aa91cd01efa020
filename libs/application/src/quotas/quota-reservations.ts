import { Injectable } from '@nestjs/common';
import {
  derivedId,
  quotaDecider,
  quotaStream,
  type QuotaCommand,
  type QuotaDeltas,
  type QuotaHolderKind,
  type QuotaSubjects,
} from '#hawser/domain';
import { CommandHandler, type CommandContext } from '../command-handler.js';
import { faultInjectionPoint } from '../fault-injection.js';
import { QuotaDefaults } from './quota-defaults.js';

/** Concurrent reservations on one project re-decide on the newer revision instead of failing. */
export const RESERVATION_RETRIES = 50;

/**
 * What a holder (a share, a snapshot, a replica) counts: in its project, for its user and its
 * share type (Manila counts a request against all three).
 */
export interface QuotaHolder extends QuotaSubjects {
  readonly projectId: string;
  readonly holderId: string;
  readonly holderKind: QuotaHolderKind;
  readonly deltas: QuotaDeltas;
}

/** A change of an existing holder's usage (an extend, a revert to a larger snapshot). */
export interface QuotaAdjustment extends QuotaSubjects {
  readonly projectId: string;
  readonly holderId: string;
  readonly deltas: QuotaDeltas;
  /** The holder's size after the change, checked against per_share_gigabytes. */
  readonly newSize: number;
}

/** A share's holder as the quota counts it: the share's project, owner and share type. */
export const quotaSubjectsOf = (share: {
  readonly id: string;
  readonly project_id: string;
  readonly user_id: string;
  readonly share_type_id: string | null;
}) => ({
  projectId: share.project_id,
  holderId: share.id,
  userId: share.user_id,
  ...(share.share_type_id !== null && { shareTypeId: share.share_type_id }),
});

const subjectsOf = ({ userId, shareTypeId }: QuotaSubjects): QuotaSubjects => ({
  ...(userId !== undefined && { userId }),
  ...(shareTypeId !== undefined && { shareTypeId }),
});

/**
 * The quota step of the use cases that create something (a share, a snapshot, a replica) or
 * grow it (an extend): counted on the project's quota stream before the request is recorded,
 * given back when the request is then refused.
 */
@Injectable()
export class QuotaReservations {
  constructor(
    private readonly commands: CommandHandler,
    private readonly defaults: QuotaDefaults,
  ) {}

  /**
   * Counts a holder's deltas against the project's, the user's and the share type's limits, as
   * one append at the quota stream's revision; over a limit it is Manila's 413 and nothing is
   * written. Counting the same holder again counts nothing. The request must then be recorded on
   * `requestShareId`'s stream, holding the holder id as its reservation (`requestHolding`):
   * unclaimed after HAWSER_RESERVATION_EXPIRE_S, the reservation expires.
   */
  async reserve(holder: QuotaHolder, requestShareId: string, ctx: CommandContext): Promise<void> {
    await this.onQuota(
      {
        type: 'ReserveQuota',
        projectId: holder.projectId,
        ...subjectsOf(holder),
        holderId: holder.holderId,
        holderKind: holder.holderKind,
        deltas: holder.deltas,
        defaults: await this.defaults.current(),
        requestShareId,
        now: new Date().toISOString(),
      },
      ctx,
    );
    faultInjectionPoint(`after-quota-reserved:${holder.holderKind}`);
  }

  /** Gives back what a holder counted; releasing twice releases once. */
  async release(holder: QuotaHolder, ctx: CommandContext): Promise<void> {
    await this.onQuota(
      {
        type: 'ReleaseQuota',
        projectId: holder.projectId,
        ...subjectsOf(holder),
        holderId: holder.holderId,
        deltas: holder.deltas,
        now: new Date().toISOString(),
      },
      ctx,
    );
  }

  /**
   * Reserves for a holder, then runs `create` (which records the request on `requestShareId`'s
   * stream); when `create` fails the holder is released, so a refused request leaves no usage.
   */
  async reservingFor<T>(
    holder: QuotaHolder,
    requestShareId: string,
    ctx: CommandContext,
    create: () => Promise<T>,
  ): Promise<T> {
    await this.reserve(holder, requestShareId, ctx);
    try {
      return await create();
    } catch (error) {
      await this.release(holder, { ...ctx, commandId: derivedId(ctx.commandId, 'release') });
      throw error;
    }
  }

  /**
   * Counts a change of an existing holder's usage (an extend), then runs `change`; when `change`
   * fails the adjustment is reverted. The adjustment id is the command's id, which `change`
   * records on the share's stream as its reservation: unclaimed there after
   * HAWSER_RESERVATION_EXPIRE_S, the adjustment is reverted.
   */
  async adjustingFor<T>(
    adjustment: QuotaAdjustment,
    ctx: CommandContext,
    change: () => Promise<T>,
  ): Promise<T> {
    const { projectId, holderId, deltas } = adjustment;
    const adjustmentId = ctx.commandId;
    await this.onQuota(
      {
        type: 'AdjustQuota',
        projectId,
        ...subjectsOf(adjustment),
        holderId,
        adjustmentId,
        deltas,
        newSize: adjustment.newSize,
        defaults: await this.defaults.current(),
        requestShareId: holderId,
        now: new Date().toISOString(),
      },
      ctx,
    );
    faultInjectionPoint('after-quota-reserved:extend');
    try {
      return await change();
    } catch (error) {
      await this.onQuota(
        {
          type: 'RevertQuotaAdjustment',
          projectId,
          ...subjectsOf(adjustment),
          holderId,
          adjustmentId,
          deltas,
          now: new Date().toISOString(),
        },
        { ...ctx, commandId: derivedId(ctx.commandId, 'revert') },
      );
      throw error;
    }
  }

  /** One command on the project's quota stream, re-decided when another request wrote first. */
  private async onQuota(command: QuotaCommand, ctx: CommandContext): Promise<void> {
    await this.commands.handle(quotaDecider, quotaStream(command.projectId), command, ctx, {
      retryOnConflict: RESERVATION_RETRIES,
    });
  }
}
