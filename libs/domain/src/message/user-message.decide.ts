import type { Decider } from '../shared/decider.js';
import { notFound } from '../shared/domain-error.js';
import type { UserMessageEvent } from './user-message.events.js';

export type UserMessageState = { readonly deleted: boolean };

export type UserMessageCommand = {
  type: 'DeleteUserMessage';
  messageId: string;
  projectId: string;
  now: string;
};

export const userMessageDecider: Decider<UserMessageState, UserMessageCommand, UserMessageEvent> = {
  initialState: () => ({ deleted: false }),
  evolve: () => ({ deleted: true }),
  decide: (command, state) => {
    if (state.deleted) throw notFound(`Message ${command.messageId} could not be found.`);
    return [
      {
        type: 'UserMessageDeleted',
        data: {
          messageId: command.messageId,
          projectId: command.projectId,
          deletedAt: command.now,
        },
      },
    ];
  },
};
