import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { shareDetailView } from '#hawser/api-contracts';
import { ManageShare } from '#hawser/application';
import { contextOf } from '../http/request-context.js';
import { requesterOf } from '../http/requester.js';
import { viewContextOf } from '../http/view-context.js';
import { Policy, Since } from '../policy/route-policy.decorators.js';

/**
 * POST /shares/manage (2.7+, admin): adopt a share that exists on a back end without share
 * servers; the answer is the new share, `manage_starting`, as Manila's.
 */
@Controller('v2/shares')
export class ShareManageController {
  constructor(private readonly commands: CommandBus) {}

  @Post('manage')
  @HttpCode(200)
  @Since('2.7')
  @Policy('share:manage')
  async manage(@Req() req: Request, @Body() body: unknown) {
    const ctx = contextOf(req);
    const doc = await this.commands.execute(new ManageShare(body, requesterOf(ctx)));
    return { share: shareDetailView(doc, viewContextOf(ctx)) };
  }
}
