import { Inject, Injectable } from '@nestjs/common';
import {
  derivedId,
  quotaDecider,
  quotaStream,
  type QuotaCommand,
  type QuotaDeltas,
  type QuotaHolderKind,
} from '#hawser/domain';
import { CommandHandler, type CommandContext } from '../command-handler.js';
import { faultInjectionPoint } from '../fault-injection.js';
import { USE_CASE_SETTINGS, type UseCaseSettings } from '../use-case-settings.js';

/** Concurrent reservations on one project re-decide on the newer revision instead of failing. */
export const RESERVATION_RETRIES = 50;

/**
 * The quota step of the use cases that create something (a share, a snapshot, a replica) or
 * grow it (an extend): counted on the project's quota stream before the request is recorded,
 * given back when the request is then refused.
 */
@Injectable()
export class QuotaReservations {
  constructor(
    private readonly commands: CommandHandler,
    @Inject(USE_CASE_SETTINGS) private readonly settings: UseCaseSettings,
  ) {}

  /**
   * Counts `deltas` for a holder (a share id, a snapshot id, ...) against the project's limits,
   * as one append at the quota stream's revision; over a limit it is Manila's 413 and nothing is
   * written. Counting the same holder again counts nothing. The request must then be recorded on
   * `requestShareId`'s stream, holding the holder id as its reservation (`requestHolding`):
   * unclaimed after HAWSER_RESERVATION_EXPIRE_S, the reservation expires.
   */
  async reserve(
    projectId: string,
    holderId: string,
    holderKind: QuotaHolderKind,
    deltas: QuotaDeltas,
    requestShareId: string,
    ctx: CommandContext,
  ): Promise<void> {
    await this.onQuota(
      {
        type: 'ReserveQuota',
        projectId,
        holderId,
        holderKind,
        deltas,
        defaults: this.settings.quotaDefaults,
        requestShareId,
        now: new Date().toISOString(),
      },
      ctx,
    );
    faultInjectionPoint(`after-quota-reserved:${holderKind}`);
  }

  /** Stops counting a holder's usage; releasing twice releases once. */
  async release(projectId: string, holderId: string, ctx: CommandContext): Promise<void> {
    await this.onQuota(
      { type: 'ReleaseQuota', projectId, holderId, now: new Date().toISOString() },
      ctx,
    );
  }

  /**
   * Counts `deltas` for a holder, then runs `create` (which records the request on
   * `requestShareId`'s stream); when `create` fails the holder is released, so a refused request
   * leaves no usage behind.
   */
  async reservingFor<T>(
    projectId: string,
    holderId: string,
    holderKind: QuotaHolderKind,
    deltas: QuotaDeltas,
    requestShareId: string,
    ctx: CommandContext,
    create: () => Promise<T>,
  ): Promise<T> {
    await this.reserve(projectId, holderId, holderKind, deltas, requestShareId, ctx);
    try {
      return await create();
    } catch (error) {
      await this.release(projectId, holderId, {
        ...ctx,
        commandId: derivedId(ctx.commandId, 'release'),
      });
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
    projectId: string,
    holderId: string,
    deltas: QuotaDeltas,
    ctx: CommandContext,
    change: () => Promise<T>,
  ): Promise<T> {
    const adjustmentId = ctx.commandId;
    await this.onQuota(
      {
        type: 'AdjustQuota',
        projectId,
        holderId,
        adjustmentId,
        deltas,
        defaults: this.settings.quotaDefaults,
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
          holderId,
          adjustmentId,
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
