import type { MessageDocument } from '#hawser/projections';
import { messageView } from './message.view.js';
import { keysOf, viewContext } from './test-support/view-context.js';

const message = {
  id: 'msg-1',
  project_id: 'p1',
  action_id: '001',
  detail_id: '008',
  message_level: 'ERROR',
  request_id: 'req-1',
  resource_type: 'SHARE',
  resource_id: 's1',
  user_message:
    "allocate host: No storage could be allocated for this share request, Capabilities filter didn't succeed.",
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2026-01-31T00:00:00.000Z',
} satisfies MessageDocument;

describe('message view (reference 1.11)', () => {
  // Messages exist from 2.37; Manila's view has no versioned or admin-only fields.
  it.each(['2.37', '2.51', '2.52', '2.73'])('at %s shows exactly the reference keys', (v) => {
    for (const isAdmin of [false, true]) {
      expect(keysOf(messageView(message, viewContext(v, { isAdmin })))).toEqual(
        [
          'id',
          'project_id',
          'action_id',
          'detail_id',
          'message_level',
          'created_at',
          'expires_at',
          'request_id',
          'links',
          'resource_type',
          'resource_id',
          'user_message',
        ].sort(),
      );
    }
  });

  it('links to the message under /messages', () => {
    expect(messageView(message, viewContext('2.37', { urlProjectId: 'p1' })).links).toEqual([
      { rel: 'self', href: 'http://hawser:8786/v2/p1/messages/msg-1' },
      { rel: 'bookmark', href: 'http://hawser:8786/p1/messages/msg-1' },
    ]);
  });
});
