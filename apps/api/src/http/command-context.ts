import { randomUUID } from 'node:crypto';
import type { CommandContext } from '#hawser/application';
import type { RequestContext } from './request-context.js';

/** A user command: a fresh id, and the request as its cause. */
export const commandContextOf = (ctx: RequestContext): CommandContext => ({
  commandId: randomUUID(),
  correlationId: ctx.requestId,
  causationId: ctx.requestId,
  requestId: ctx.requestId,
  microversion: ctx.microversion.text,
  ...(ctx.auth && { userId: ctx.auth.userId, projectId: ctx.auth.projectId }),
});
