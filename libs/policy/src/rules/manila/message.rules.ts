import type { RuleDefinition } from '../rule-definition.js';
import { ADMIN_OR_PROJECT_MEMBER, ADMIN_OR_PROJECT_READER, LEGACY_DEFAULT } from './personas.js';

/** Manila 15.1's manila/policies/message.py. */
export const MESSAGE_RULES: readonly RuleDefinition[] = [
  {
    name: 'message:get',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get details of a given message.',
    operations: [{ method: 'GET', path: '/messages/{message_id}' }],
  },
  {
    name: 'message:get_all',
    check: ADMIN_OR_PROJECT_READER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Get all messages.',
    operations: [
      { method: 'GET', path: '/messages' },
      { method: 'GET', path: '/messages?{query}' },
    ],
  },
  {
    name: 'message:delete',
    check: ADMIN_OR_PROJECT_MEMBER,
    legacyCheck: LEGACY_DEFAULT,
    description: 'Delete a message.',
    operations: [{ method: 'DELETE', path: '/messages/{message_id}' }],
  },
];
