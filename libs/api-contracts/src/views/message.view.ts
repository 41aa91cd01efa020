import type { MessageDocument } from '#hawser/projections';
import { resourceLinks, type ViewContext } from './view-context.js';

/** Manila's user message view (reference 1.11). */
export const messageView = (doc: MessageDocument, ctx: ViewContext): Record<string, unknown> => ({
  id: doc.id,
  project_id: doc.project_id,
  action_id: doc.action_id,
  detail_id: doc.detail_id,
  message_level: doc.message_level,
  created_at: doc.created_at,
  expires_at: doc.expires_at,
  request_id: doc.request_id,
  links: resourceLinks(ctx, 'messages', doc.id),
  resource_type: doc.resource_type,
  resource_id: doc.resource_id,
  user_message: doc.user_message,
});
