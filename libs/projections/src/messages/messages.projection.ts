import { derivedId, SHARE_STREAM_PREFIX, USER_MESSAGE_STREAM_PREFIX } from '#hawser/domain';
import { eitherDecoder, type RecordedEvent } from '#hawser/eventstore';
import type { Projection, ProjectionContext } from '#hawser/read-models';
import { shareEvents, userMessageEvents } from '../../../../eventstore/decoders.js';

export const MESSAGES = 'messages';
/** The project and request of each live share, which its messages carry. */
export const MESSAGE_SOURCES = 'message_sources';

/** Manila's message_ttl: a message expires 30 days after it was written. */
export const MESSAGE_TTL_MS = 2_592_000_000;

/** Manila's action texts (message/message_field.py) that Hawser records. */
export const MESSAGE_ACTIONS: Readonly<Record<string, string>> = {
  '001': 'allocate host',
  '002': 'create',
  '004': 'promote',
  '005': 'update',
  '008': 'extend',
  '010': 'update access rules',
  // Manila's message_field has no action for migration, nor writes a message when one fails.
  '901': 'migrate',
};
export const UNKNOWN_ERROR_DETAIL = { id: '001', text: 'An unknown error occurred.' } as const;

/**
 * Creating from a snapshot: Manila's failure detail (017), and Hawser's two INFO details for
 * the creation going on in the background and ending well (Manila writes no message there).
 */
const FROM_SNAPSHOT_DETAILS = {
  failed: {
    id: '017',
    text:
      'Share Driver has failed to create the share from snapshot. This operation can be ' +
      're-attempted by creating a new share. Contact your administrator to determine the ' +
      'cause of this failure.',
  },
  asynchronous: {
    id: '901',
    text:
      'The share is being created from the snapshot in the background; its progress shows ' +
      'how far it is.',
  },
  completed: { id: '902', text: 'The share was created from the snapshot and is available.' },
} as const;

/** Hawser's detail for an access update the back end failed (Manila writes no message there). */
const ACCESS_UPDATE_FAILED = {
  id: '903',
  text: 'The back end could not apply the access rules; the rules it was applying are in error.',
} as const;

/** Hawser's detail for rules the back end cannot enforce while it applied the others. */
const ACCESS_RULES_REFUSED = {
  id: '904',
  text:
    'The back end cannot enforce some of the access rules (their type, level or value is not ' +
    "one the share's protocol takes); those rules are in error, the others apply.",
} as const;

/**
 * Hawser's detail for a failed migration (Manila writes none): the failure left the share on
 * its source; what failed is in the event for the operators.
 */
const MIGRATION_FAILED = {
  id: '905',
  text:
    'The share could not be migrated to the requested host; it stays available where it was ' +
    'and the copy at the destination is removed. Contact your administrator to determine the ' +
    'cause of this failure.',
} as const;

/** One user message as Manila's messages API shows it (reference 1.11). */
export interface MessageDocument {
  id: string;
  project_id: string;
  action_id: string;
  detail_id: string;
  /** Manila writes ERROR only; Hawser adds INFO for a share created from a snapshot. */
  message_level: 'ERROR' | 'INFO';
  request_id: string | null;
  resource_type: 'SHARE' | 'SHARE_REPLICA';
  resource_id: string;
  user_message: string;
  created_at: string;
  expires_at: string;
}

interface MessageSourceDocument {
  id: string;
  project_id: string;
  request_id: string | null;
  /** Created from a snapshot; absent when not. */
  from_snapshot?: boolean;
  /** Instances whose creation went on in the background; absent when none. */
  asynchronous_instances?: string[];
}

/** What the scheduler recorded for the user in `detail.userMessage` (no-valid-host). */
interface RecordedUserMessage {
  actionId: string;
  detailId: string;
  userMessage: string;
  level?: 'ERROR' | 'INFO';
}

const recordedUserMessage = (detail: Record<string, unknown>): RecordedUserMessage | undefined => {
  const candidate = detail.userMessage as Partial<RecordedUserMessage> | undefined;
  return typeof candidate?.actionId === 'string' &&
    typeof candidate.detailId === 'string' &&
    typeof candidate.userMessage === 'string'
    ? (candidate as RecordedUserMessage)
    : undefined;
};

const expiresAt = (createdAt: string): string =>
  new Date(Date.parse(createdAt) + MESSAGE_TTL_MS).toISOString();

const messageOf = (
  actionId: string,
  detail: { readonly id: string; readonly text: string },
  level: 'ERROR' | 'INFO' = 'ERROR',
): RecordedUserMessage => ({
  actionId,
  detailId: detail.id,
  userMessage: `${MESSAGE_ACTIONS[actionId]}: ${detail.text}`,
  level,
});

const unknownError = (actionId: string): RecordedUserMessage =>
  messageOf(actionId, UNKNOWN_ERROR_DETAIL);

/**
 * User messages (Manila's messages API): one per failed placement (action 001, with the detail
 * the scheduler recorded), per extend the scheduler refused (action 008, likewise) and per failed driver creation (action 002, unknown error). A share
 * from a snapshot gets detail 017 when its creation fails (action 005 once it went on in the
 * background, as Manila's periodic task writes it), and INFO messages when its creation goes
 * on in the background (002/901) and when that ends well (005/902). A failed migration gets
 * Hawser's action 901 (migrate) with detail 905. A
 * message's id derives from the event it reports, so a rebuild gives the same ids; a deleted
 * message stays deleted because its deletion is an event too.
 */
/** The share events that make messages, and the users' deletions of them. */
const messageSourceEvents = eitherDecoder(shareEvents, userMessageEvents);

export const messagesProjection: Projection = {
  name: 'messages',
  collections: [MESSAGES, MESSAGE_SOURCES],
  filter: {
    streamPrefixes: [SHARE_STREAM_PREFIX, USER_MESSAGE_STREAM_PREFIX],
    eventTypes: [
      'ShareRequested',
      'ShareSchedulingFailed',
      'ShareExtendRefused',
      'ShareCreationDeferred',
      'ShareCreated',
      'ShareCreationFailed',
      'ShareDeleted',
      'ReplicaSchedulingFailed',
      'ReplicaCreationFailed',
      'ReplicaPromotionFailed',
      'ShareAccessUpdated',
      'ShareAccessUpdateFailed',
      'ShareMigrationFailed',
      'UserMessageDeleted',
    ],
  },
  indexes: { [MESSAGES]: [['project_id', 'created_at'], ['resource_id']] },
  async handle(recorded: RecordedEvent, ctx: ProjectionContext): Promise<void> {
    const event = messageSourceEvents.decode(recorded);
    const shareId = event.streamId.slice(SHARE_STREAM_PREFIX.length);
    switch (event.type) {
      case 'ShareRequested': {
        const data = event.data;
        const requestId = event.metadata.requestId;
        ctx.put(MESSAGE_SOURCES, {
          id: shareId,
          project_id: data.projectId,
          request_id: typeof requestId === 'string' ? requestId : null,
          // Absent means false and none: every share has a source, most from no snapshot.
          ...(data.snapshotId !== null && { from_snapshot: true }),
        } satisfies MessageSourceDocument);
        return;
      }
      case 'ShareSchedulingFailed': {
        const data = event.data;
        const message = recordedUserMessage(data.detail) ?? unknownError('001');
        await putMessage(ctx, event, shareId, message, data.failedAt);
        return;
      }
      case 'ShareExtendRefused': {
        const data = event.data;
        const message = recordedUserMessage(data.detail) ?? unknownError('008');
        await putMessage(ctx, event, shareId, message, data.refusedAt);
        return;
      }
      case 'ShareCreationDeferred': {
        const data = event.data;
        const source = await ctx.get<MessageSourceDocument>(MESSAGE_SOURCES, shareId);
        if (!source) return;
        const asynchronous = [...(source.asynchronous_instances ?? []), data.instanceId];
        ctx.put(MESSAGE_SOURCES, { ...source, asynchronous_instances: asynchronous });
        const message = messageOf('002', FROM_SNAPSHOT_DETAILS.asynchronous, 'INFO');
        await putMessage(ctx, event, shareId, message, data.answeredAt, source);
        return;
      }
      case 'ShareCreated': {
        const data = event.data;
        const source = await ctx.get<MessageSourceDocument>(MESSAGE_SOURCES, shareId);
        if (!source?.asynchronous_instances?.includes(data.instanceId)) return;
        const message = messageOf('005', FROM_SNAPSHOT_DETAILS.completed, 'INFO');
        await putMessage(ctx, event, shareId, message, data.createdAt, source);
        return;
      }
      case 'ShareCreationFailed': {
        const data = event.data;
        const source = await ctx.get<MessageSourceDocument>(MESSAGE_SOURCES, shareId);
        if (!source) return;
        const asynchronous = source.asynchronous_instances?.includes(data.instanceId) ?? false;
        const message = source.from_snapshot
          ? messageOf(asynchronous ? '005' : '002', FROM_SNAPSHOT_DETAILS.failed)
          : unknownError('002');
        await putMessage(ctx, event, shareId, message, data.failedAt, source);
        return;
      }
      case 'ShareDeleted':
        ctx.delete(MESSAGE_SOURCES, shareId);
        return;
      case 'ReplicaSchedulingFailed': {
        const data = event.data;
        const message = recordedUserMessage(data.detail) ?? unknownError('001');
        await putMessage(ctx, event, shareId, message, data.failedAt, undefined, {
          type: 'SHARE_REPLICA',
          id: data.replicaId,
        });
        return;
      }
      case 'ReplicaCreationFailed':
      case 'ReplicaPromotionFailed': {
        const data = event.data;
        const action = event.type === 'ReplicaCreationFailed' ? '002' : '004';
        await putMessage(ctx, event, shareId, unknownError(action), data.failedAt, undefined, {
          type: 'SHARE_REPLICA',
          id: data.replicaId,
        });
        return;
      }
      case 'ShareAccessUpdated': {
        const refused = Object.values(event.data.ruleUpdates).some((u) => u.state === 'error');
        if (!refused) return;
        const message = messageOf('010', ACCESS_RULES_REFUSED);
        await putMessage(ctx, event, shareId, message, event.data.updatedAt);
        return;
      }
      case 'ShareAccessUpdateFailed': {
        const message = messageOf('010', ACCESS_UPDATE_FAILED);
        await putMessage(ctx, event, shareId, message, event.data.failedAt);
        return;
      }
      case 'ShareMigrationFailed': {
        const message = messageOf('901', MIGRATION_FAILED);
        await putMessage(ctx, event, shareId, message, event.data.failedAt);
        return;
      }
      case 'UserMessageDeleted':
        ctx.delete(MESSAGES, event.data.messageId);
        return;
    }
  },
};

const putMessage = async (
  ctx: ProjectionContext,
  event: RecordedEvent,
  shareId: string,
  message: RecordedUserMessage,
  createdAt: string,
  known?: MessageSourceDocument,
  resource: { type: MessageDocument['resource_type']; id: string } = { type: 'SHARE', id: shareId },
): Promise<void> => {
  const source = known ?? (await ctx.get<MessageSourceDocument>(MESSAGE_SOURCES, shareId));
  if (!source) return;
  ctx.put(MESSAGES, {
    id: userMessageIdOf(event.id),
    project_id: source.project_id,
    action_id: message.actionId,
    detail_id: message.detailId,
    message_level: message.level ?? 'ERROR',
    request_id: source.request_id,
    resource_type: resource.type,
    resource_id: resource.id,
    user_message: message.userMessage,
    created_at: createdAt,
    expires_at: expiresAt(createdAt),
  } satisfies MessageDocument);
};

/** The id of the message that reports the event `eventId`. */
export const userMessageIdOf = (eventId: string): string => derivedId(eventId, 'user-message');
