import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request, Response } from 'express';
import { ForceDeleteShareInstance, ResetShareInstanceStatus } from '#hawser/application';
import type { ShareStatus } from '#hawser/domain';
import { statusArgument } from '../http/action-body.js';
import { contextOf } from '../http/request-context.js';
import { requesterOf } from '../http/requester.js';
import { runManilaAction, type ActionCall } from '../policy/manila-actions.js';
import { fromParam, shareInstance } from '../policy/policy-targets.js';
import { ManilaAction, ManilaActions, Policy, Since } from '../policy/route-policy.decorators.js';

const theInstance = shareInstance(fromParam('id'));

/**
 * The admin actions on one share instance (2.3+, reference 3.4.3): reset_status sets that
 * instance's status; force_delete removes it whatever its back end says: the whole share when
 * it is the share's only instance, else that replica.
 */
@Controller('v2/share_instances')
@Since('2.3')
export class ShareInstanceActionsController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/action')
  @HttpCode(202)
  @ManilaActions()
  action(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Param('id') id: string) {
    return runManilaAction(this, contextOf(req), id, res);
  }

  @ManilaAction('reset_status', { osNameBefore27: true })
  @Policy('share_instance:reset_status', theInstance)
  async resetStatus({ id, argument, ctx }: ActionCall) {
    const status = statusArgument(argument) as ShareStatus;
    await this.commands.execute(new ResetShareInstanceStatus(id, status, requesterOf(ctx)));
  }

  @ManilaAction('force_delete', { osNameBefore27: true })
  @Policy('share_instance:force_delete', theInstance)
  async forceDelete({ id, ctx }: ActionCall) {
    await this.commands.execute(new ForceDeleteShareInstance(id, requesterOf(ctx)));
  }
}
