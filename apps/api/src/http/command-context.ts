import { timeOrderedId, type CommandContext } from '#hawser/application';
import type { RequestContext } from './request-context.js';

/**
 * A user command: a fresh id, and the request as its cause. The id begins with its time (version
 * 7), which the ids of its events and of what they cause keep (`derivedId`).
 */
export const commandContextOf = (ctx: RequestContext): CommandContext => ({
  commandId: timeOrderedId(),
  correlationId: ctx.requestId,
  causationId: ctx.requestId,
  requestId: ctx.requestId,
  microversion: ctx.microversion.text,
  ...(ctx.auth && { userId: ctx.auth.userId, projectId: ctx.auth.projectId }),
});
