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
  type DerivedCollection,
  type DerivedCollectionOptions,
  type Identified,
} from '#hawser/read-models';
import { shareEvents } from '../../../../eventstore/decoders.js';
import { shareStateOf, type ShareRecord } from './share.documents.js';

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

/** How the share projection shows one kind of a share's items (its instances, snapshots, rules). */
export interface ShareItemsOptions<I extends { id: string }> {
  readonly collection: string;
  readonly items: (share: ActiveShare) => readonly I[];
  readonly toDocument: (share: ActiveShare, item: I, revision: number) => Identified;
  readonly rewrite: DerivedCollectionOptions<ShareRecord, I>['rewrite'];
}

/**
 * One document per item of each share, derived from the share the listing folds: the share is
 * folded once and kept once, in its record (see the README, "Scale").
 */
export const shareItems = <I extends { id: string }>(
  options: ShareItemsOptions<I>,
): DerivedCollection<ShareRecord> =>
  derivedCollection<ShareRecord, I>({
    collection: options.collection,
    items: (record) => options.items(shareStateOf(record)),
    toDocument: (record, item) => options.toDocument(shareStateOf(record), item, record.revision),
    rewrite: options.rewrite,
  });
