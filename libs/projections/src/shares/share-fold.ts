import {
  evolveShare,
  initialShareState,
  SHARE_STREAM_PREFIX,
  type ShareEvent,
  type ShareState,
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
 * never disagree with what the deciders see. Undefined once the share is deleted.
 */
export const foldShare = (
  state: ShareState | undefined,
  event: ShareStreamEvent,
): ShareState | undefined => {
  const after = evolveShare(state ?? initialShareState(), event);
  return after.lifecycle === 'deleted' ? undefined : after;
};

/** A share that exists (not a stream holding only a refused request's fence). */
export const isActiveShare = (state: ShareState | undefined): state is ShareState =>
  state?.lifecycle === 'active';

/** The share as a projection folds it for itself (see the README: which read models keep it). */
interface ShareStateDocument extends StreamDocument {
  readonly state: ShareState;
}

/** `evolve` of a projection that keeps only the folded share. */
const evolveShareState = (
  document: ShareStateDocument | undefined,
  event: ShareStreamEvent,
): { state: ShareState } | undefined => {
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
  readonly items: (share: ShareState) => readonly I[];
  readonly toDocument: (share: ShareState, item: I, revision: number) => Identified;
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
