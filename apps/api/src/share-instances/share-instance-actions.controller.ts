import { Controller, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ShareStatus } from '#hawser/domain';
import {
  SHARE_INSTANCES,
  SHARES,
  type ShareInstanceDocument,
  type ShareRecord,
} from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE } from '#hawser/platform';
import { statusArgument } from '../http/action-body.js';
import { notFoundError } from '../http/manila-error.js';
import { contextOf } from '../http/request-context.js';
import { runManilaAction, type ActionCall } from '../policy/manila-actions.js';
import { fromParam, shareInstance } from '../policy/policy-targets.js';
import { ManilaAction, ManilaActions, Policy, Since } from '../policy/route-policy.decorators.js';
import { SharesService } from '../shares/shares.service.js';

const theInstance = shareInstance(fromParam('id'));

/**
 * The admin actions on one share instance (2.3+, reference 3.4.3): reset_status sets that
 * instance's status; force_delete removes it whatever its back end says: the whole share when
 * it is the share's only instance, else that replica.
 */
@Controller('v2/share_instances')
@Since('2.3')
export class ShareInstanceActionsController {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly shares: SharesService,
  ) {}

  @Post(':id/action')
  @HttpCode(202)
  @ManilaActions()
  action(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Param('id') id: string) {
    return runManilaAction(this, contextOf(req), id, res);
  }

  @ManilaAction('reset_status')
  @Policy('share_instance:reset_status', theInstance)
  async resetStatus({ id, argument, ctx }: ActionCall) {
    const status = statusArgument(argument);
    const instance = await this.instance(id);
    await this.shares.run(instance.share_id, ctx, {
      type: 'ResetShareStatus',
      status: status as ShareStatus,
      instanceId: instance.id,
      now: new Date().toISOString(),
    });
  }

  @ManilaAction('force_delete')
  @Policy('share_instance:force_delete', theInstance)
  async forceDelete({ id, ctx }: ActionCall) {
    const instance = await this.instance(id);
    const share = await this.documents.get<ShareRecord>(SHARES, instance.share_id);
    const now = new Date().toISOString();
    await this.shares.run(
      instance.share_id,
      ctx,
      (share?.state.instances.length ?? 0) > 1
        ? { type: 'DeleteReplica', replicaId: instance.id, force: true, now }
        : { type: 'DeleteShare', force: true, now },
    );
  }

  private async instance(id: string): Promise<ShareInstanceDocument> {
    const doc = await this.documents.get<ShareInstanceDocument>(SHARE_INSTANCES, id);
    if (!doc) throw notFoundError(`Share instance ${id} could not be found.`);
    return doc;
  }
}
