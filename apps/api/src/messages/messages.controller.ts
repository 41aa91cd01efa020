import { Controller, Delete, Get, HttpCode, Param, Query, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { messageView } from '#hawser/api-contracts';
import { DeleteMessage, ListMessages, ShowMessage } from '#hawser/application';
import { contextOf } from '../http/request-context.js';
import { readerOf, requesterOf } from '../http/requester.js';
import { viewContextOf } from '../http/view-context.js';
import { nextPageLink } from '../http/next-page-link.js';
import { fromParam, message } from '../policy/policy-targets.js';
import { Policy, Since } from '../policy/route-policy.decorators.js';

const theMessage = message(fromParam('id'));

/** Manila's user messages (2.37+, reference 1.11 and 3.9): the caller's project unless admin. */
@Controller('v2/messages')
@Since('2.37')
export class MessagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** A page of messages; `messages_links` points on when the page is full and more follow. */
  @Get()
  @Policy('message:get_all')
  async list(@Req() req: Request, @Query() query: Record<string, string>) {
    const ctx = contextOf(req);
    const { messages, more } = await this.queries.execute(new ListMessages(query, readerOf(ctx)));
    const body: Record<string, unknown> = {
      messages: messages.map((m) => messageView(m, viewContextOf(ctx))),
    };
    if (more) {
      const offset = Number(query.offset ?? 0) + messages.length;
      body.messages_links = nextPageLink(
        req,
        ctx,
        new URLSearchParams({ ...query, offset: `${offset}` }),
      );
    }
    return body;
  }

  @Get(':id')
  @Policy('message:get', theMessage)
  async show(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const message = await this.queries.execute(new ShowMessage(id, readerOf(ctx)));
    return { message: messageView(message, viewContextOf(ctx)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Policy('message:delete', theMessage)
  async remove(@Req() req: Request, @Param('id') id: string) {
    await this.commands.execute(new DeleteMessage(id, requesterOf(contextOf(req))));
  }
}
