import {
  evolveShare,
  initialShareState,
  SHARE_STREAM_PREFIX,
  type ShareEvent,
  isActiveShare,
  type ActiveShare,
} from '#hawser/domain';
import type { Decoded, RecordedEvent } from '#hawser/eventstore';
import {
  derivedCollection,
  singleStreamProjection,
  type DerivedCollectionOptions,
  type Identified,
  type Projection,
  type StreamDocument,
} from '#hawser/read-models';
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
 * never disagree with what the deciders see. Undefined unless the share exists: once it is
 * deleted, and for a stream that holds only a refused request's fence (ReservationExpired).
 */
export const foldShare = (
  state: ActiveShare | undefined,
  event: ShareStreamEvent,
): ActiveShare | undefined => {
  const after = evolveShare(state ?? initialShareState(), event);
  return isActiveShare(after) ? after : undefined;
};

/** The share as a projection folds it for itself (see the README: which read models keep it). */
interface ShareStateDocument extends StreamDocument {
  readonly state: ActiveShare;
}

/** `evolve` of a projection that keeps only the folded share. */
const evolveShareState = (
  document: ShareStateDocument | undefined,
  event: ShareStreamEvent,
): { state: ActiveShare } | undefined => {
  const state = foldShare(document?.state, event);
  return state && { state };
};

/** How a projection shows one kind of a share's items (its instances, snapshots, rules). */
export interface ShareItemsOptions<I extends { id: string }> {
  readonly name: string;
  /** The projection's own folded shares (see the README: why each keeps one). */
  readonly stateCollection: string;
  readonly collection: string;
  readonly indexes: Readonly<Record<string, readonly (readonly string[])[]>>;
  readonly items: (share: ActiveShare) => readonly I[];
  readonly toDocument: (share: ActiveShare, item: I, revision: number) => Identified;
  readonly rewrite: DerivedCollectionOptions<ShareStateDocument, I>['rewrite'];
}

/** A projection of one document per item of each share, which it folds for itself. */
export const shareItemsProjection = <I extends { id: string }>(
  options: ShareItemsOptions<I>,
): Projection =>
  singleStreamProjection<ShareStateDocument, ShareStreamEvent>({
    name: options.name,
    collection: options.stateCollection,
    ...shareStream,
    indexes: options.indexes,
    evolve: evolveShareState,
    derived: [
      derivedCollection<ShareStateDocument, I>({
        collection: options.collection,
        items: (document) => options.items(document.state),
        toDocument: (document, item) => options.toDocument(document.state, item, document.revision),
        rewrite: options.rewrite,
      }),
    ],
  });
