import {
  evolveShare,
  initialShareState,
  SHARE_STREAM_PREFIX,
  type ShareEvent,
  type ShareState,
} from '#hawser/domain';
import type { Decoded, RecordedEvent } from '#hawser/eventstore';
import type { StreamDocument } from '#hawser/read-models';
import { shareEvents } from '../../../../eventstore/decoders.js';

export type ShareStreamEvent = Decoded<ShareEvent>;

/** What every share read model reads: the share streams, decoded, one document per share. */
export const shareStream = {
  filter: { streamPrefixes: [SHARE_STREAM_PREFIX] },
  decode: (event: RecordedEvent): ShareStreamEvent => shareEvents.decode(event),
  documentId: (event: ShareStreamEvent): string => event.streamId.slice(SHARE_STREAM_PREFIX.length),
} as const;

/**
 * The one place read models fold a share event, with the domain's own `evolve`, so they can
 * never disagree with what the deciders see. Undefined once the share is deleted.
 */
export const foldShare = (
  state: ShareState | undefined,
  event: ShareStreamEvent,
): ShareState | undefined => {
  const after = evolveShare(state ?? initialShareState(), event);
  return after.lifecycle === 'deleted' ? undefined : after;
};

/** The share as a projection folds it for itself (see the README: which read models keep it). */
export interface ShareStateDocument extends StreamDocument {
  readonly state: ShareState;
}

/** `evolve` of a projection that keeps only the folded share. */
export const evolveShareState = (
  document: ShareStateDocument | undefined,
  event: ShareStreamEvent,
): { state: ShareState } | undefined => {
  const state = foldShare(document?.state, event);
  return state && { state };
};
