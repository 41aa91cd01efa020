import type { DomainEvent } from '../shared/decider.js';

/**
 * A user deleted a message. Messages themselves are derived from the events they report (a
 * failed placement, a failed creation); only their deletion is a fact of its own, kept so that
 * it is audited and the messages read model can be rebuilt without it coming back.
 */
export type UserMessageDeleted = DomainEvent<
  'UserMessageDeleted',
  { messageId: string; projectId: string; deletedAt: string }
>;

export type UserMessageEvent = UserMessageDeleted;

export const USER_MESSAGE_STREAM_PREFIX = 'message-';
export const userMessageStream = (messageId: string): string =>
  `${USER_MESSAGE_STREAM_PREFIX}${messageId}`;
