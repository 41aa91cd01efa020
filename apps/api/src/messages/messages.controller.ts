import { Controller, Delete, Get, HttpCode, Inject, Param, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { messageView } from '#hawser/api-contracts';
import { userMessageDecider, userMessageStream } from '#hawser/domain';
import { CommandHandler } from '#hawser/application';
import { MESSAGES, type MessageDocument } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE, READ_YOUR_WRITES, type ReadYourWrites } from '#hawser/platform';
import { commandContextOf } from '../http/command-context.js';
import { notFoundError } from '../http/manila-error.js';
import { requireAuth } from '../http/policy.js';
import { contextOf, type RequestContext } from '../http/request-context.js';
import { viewContextOf } from '../http/view-context.js';
import { nextPageLink } from '../http/next-page-link.js';
import { fromParam, message } from '../policy/policy-targets.js';
import { Policy, Since } from '../policy/route-policy.decorators.js';
import { listMessages } from './message-list.query.js';

const theMessage = message(fromParam('id'));

/** Manila's user messages (2.37+, reference 1.11 and 3.9): the caller's project unless admin. */
@Controller('v2/messages')
@Since('2.37')
export class MessagesController {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly commands: CommandHandler,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
  ) {}

  /** A page of messages; `messages_links` points on when the page is full and more follow. */
  @Get()
  @Policy('message:get_all')
  async list(@Req() req: Request, @Query() query: Record<string, string>) {
    const ctx = contextOf(req);
    const { messages, more } = await listMessages(
      this.documents,
      requireAuth(ctx),
      ctx.microversion,
      query,
      new Date(),
    );
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
    return { message: messageView(await this.find(ctx, id), viewContextOf(ctx)) };
  }

  /** Deleting is an event on the message's own stream, so the audit trail shows who did it. */
  @Delete(':id')
  @HttpCode(204)
  @Policy('message:delete', theMessage)
  async remove(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const message = await this.find(ctx, id);
    const result = await this.commands.handle(
      userMessageDecider,
      userMessageStream(message.id),
      {
        type: 'DeleteUserMessage',
        messageId: message.id,
        projectId: message.project_id,
        now: new Date().toISOString(),
      },
      commandContextOf(ctx),
    );
    await this.readYourWrites.waitFor(result.position);
  }

  private async find(ctx: RequestContext, id: string): Promise<MessageDocument> {
    const auth = requireAuth(ctx);
    const message = await this.documents.get<MessageDocument>(MESSAGES, id);
    const visible =
      message &&
      (auth.isAdmin || message.project_id === auth.projectId) &&
      message.expires_at > new Date().toISOString();
    if (!visible) throw notFoundError(`Message ${id} not found.`);
    return message;
  }
}
