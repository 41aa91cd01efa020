import { deciderSpec } from '../test-support/decider-spec.js';
import { userMessageDecider } from './user-message.decide.js';
import type { UserMessageEvent } from './user-message.events.js';

const spec = deciderSpec(userMessageDecider);
const command = { type: 'DeleteUserMessage', messageId: 'm1', projectId: 'p1', now: 't1' } as const;
const deleted: UserMessageEvent = {
  type: 'UserMessageDeleted',
  data: { messageId: 'm1', projectId: 'p1', deletedAt: 't1' },
};

describe('user message decider', () => {
  it('deletes a message', () => spec.given([]).when(command).then([deleted]));
  it('refuses to delete it twice', () =>
    spec
      .given([deleted])
      .when(command)
      .thenThrows('not_found', /Message m1/));
});
