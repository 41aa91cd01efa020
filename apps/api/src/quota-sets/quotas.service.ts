import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, faultInjectionPoint, type CommandContext } from '#hawser/application';
import {
  derivedId,
  effectiveLimits,
  initialQuotaState,
  quotaDecider,
  quotaStream,
  quotaUsage,
  type QuotaDeltas,
  type QuotaHolderKind,
  type QuotaLimits,
  type QuotaResource,
} from '#hawser/domain';
import { QUOTAS, type QuotaDocument } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE, READ_YOUR_WRITES, type ReadYourWrites } from '#hawser/platform';

/** Concurrent reservations on one project re-decide on the newer revision instead of failing. */
const RESERVATION_RETRIES = 50;

export interface QuotaFigures {
  readonly limits: QuotaLimits;
  readonly inUse: Readonly<Record<QuotaResource, number>>;
}

/**
 * A project's quota: the reservations other use cases make before creating something (shares
 * now, snapshots and replicas the same way), and the figures the quota-sets API shows.
 */
/** The default quota limits (HawserConfig.quotaDefaults). */
export const QUOTA_DEFAULTS = Symbol('QUOTA_DEFAULTS');

@Injectable()
export class QuotasService {
  constructor(
    private readonly commands: CommandHandler,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
    @Inject(QUOTA_DEFAULTS) readonly defaults: QuotaLimits,
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
    await this.commands.handle(
      quotaDecider,
      quotaStream(projectId),
      {
        type: 'ReserveQuota',
        projectId,
        holderId,
        holderKind,
        deltas,
        defaults: this.defaults,
        requestShareId,
        now: new Date().toISOString(),
      },
      ctx,
      { retryOnConflict: RESERVATION_RETRIES },
    );
    faultInjectionPoint(`after-quota-reserved:${holderKind}`);
  }

  /** Stops counting a holder's usage; releasing twice releases once. */
  async release(projectId: string, holderId: string, ctx: CommandContext): Promise<void> {
    await this.commands.handle(
      quotaDecider,
      quotaStream(projectId),
      { type: 'ReleaseQuota', projectId, holderId, now: new Date().toISOString() },
      ctx,
      { retryOnConflict: RESERVATION_RETRIES },
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
    await this.commands.handle(
      quotaDecider,
      quotaStream(projectId),
      {
        type: 'AdjustQuota',
        projectId,
        holderId,
        adjustmentId,
        deltas,
        defaults: this.defaults,
        requestShareId: holderId,
        now: new Date().toISOString(),
      },
      ctx,
      { retryOnConflict: RESERVATION_RETRIES },
    );
    faultInjectionPoint('after-quota-reserved:extend');
    try {
      return await change();
    } catch (error) {
      await this.commands.handle(
        quotaDecider,
        quotaStream(projectId),
        {
          type: 'RevertQuotaAdjustment',
          projectId,
          holderId,
          adjustmentId,
          now: new Date().toISOString(),
        },
        { ...ctx, commandId: derivedId(ctx.commandId, 'revert') },
        { retryOnConflict: RESERVATION_RETRIES },
      );
      throw error;
    }
  }

  async setLimits(
    projectId: string,
    limits: Partial<Record<QuotaResource, number>>,
    force: boolean,
    ctx: CommandContext,
  ): Promise<void> {
    const result = await this.commands.handle(
      quotaDecider,
      quotaStream(projectId),
      { type: 'SetQuotaLimits', projectId, limits, force, now: new Date().toISOString() },
      ctx,
    );
    await this.readYourWrites.waitFor(result.position);
  }

  async resetLimits(projectId: string, ctx: CommandContext): Promise<void> {
    const result = await this.commands.handle(
      quotaDecider,
      quotaStream(projectId),
      { type: 'ResetQuotaLimits', projectId, now: new Date().toISOString() },
      ctx,
    );
    await this.readYourWrites.waitFor(result.position);
  }

  /** Limits in force and usage, from the quotas read model. */
  async figures(projectId: string): Promise<QuotaFigures> {
    const doc = await this.documents.get<QuotaDocument>(QUOTAS, projectId);
    const state = doc?.state ?? initialQuotaState();
    return { limits: effectiveLimits(state, this.defaults), inUse: quotaUsage(state) };
  }
}
