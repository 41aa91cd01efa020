import {
  AFFINITY_HINTS,
  AFFINITY_KEYS,
  evolveShare,
  initialShareState,
  linkedShareIds,
  SHARE_STREAM_PREFIX,
  shareIdOfStream,
  type AffinityCommand,
  type AffinityHint,
  type ShareEvent,
  type ShareFields,
  type ShareState,
} from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import type { Unstamped, Workflow } from '../runtime/workflow.js';

/** An affinity command for share `shareId`'s stream; its id derives from the cause and `purpose`. */
export interface AffinityLinkOutput {
  readonly shareId: string;
  readonly command: Unstamped<AffinityCommand>;
  readonly purpose: string;
  /** Sent instead when share `shareId` does not exist (any more). */
  readonly ifGone?: AffinityLinkOutput;
}

type Input = Decoded<ShareEvent>;

/**
 * The symmetric side of scheduler hints (reference 7.2, 7.5), each change on the stream of the
 * share it concerns:
 * - ShareRequested with hints: every share named that the new share's metadata lists (the API
 *   lists only the shares the requester may write: its project's, or any for an admin) gets
 *   the new share's id under the same key; a named share that is gone by now is taken off the
 *   new share's list instead. Another project's share named by a member guides the placement
 *   only and is not written to.
 * - ShareDeleted: every share the deleted one lists (its own hints and the links others made to
 *   it, read from the share as it is now) loses the deleted share's id.
 * Links are idempotent by state, so a replay repeats nothing.
 */
export const affinityLinksWorkflow: Workflow<Input, ShareState, AffinityLinkOutput, ShareEvent> = {
  name: 'affinity-links',
  filter: {
    streamPrefixes: [SHARE_STREAM_PREFIX],
    eventTypes: ['ShareRequested', 'ShareDeleted'],
  },
  initialState: initialShareState,
  evolve: evolveShare,
  readsHistory: (event) => event.type === 'ShareDeleted',
  decide: (event, share) => {
    const shareId = shareIdOfStream(event.streamId);
    switch (event.type) {
      case 'ShareRequested':
        return links(shareId, event.data);
      case 'ShareDeleted':
        return unlinks(shareId, share);
      default:
        return [];
    }
  },
};

const links = (
  shareId: string,
  { schedulerHints: hints, metadata }: Pick<ShareFields, 'schedulerHints' | 'metadata'>,
): AffinityLinkOutput[] =>
  AFFINITY_HINTS.flatMap((hint) => {
    const recorded = new Set(linkedShareIds(metadata[AFFINITY_KEYS[hint]]));
    return [...new Set(hints?.[hint] ?? [])]
      .filter((other) => recorded.has(other))
      .map((other) => ({
        shareId: other,
        command: { type: 'LinkAffinity', hint, shareId },
        purpose: `link:${hint}:${other}`,
        ifGone: unlink(shareId, hint, other, other),
      }));
  });

const unlinks = (shareId: string, share: ShareState): AffinityLinkOutput[] =>
  share.kind === 'absent' ? [] : unlinksOf(shareId, share);

const unlinksOf = (shareId: string, share: ShareFields): AffinityLinkOutput[] =>
  AFFINITY_HINTS.flatMap((hint) => {
    // Its own hints too, in case an admin edited the key away.
    const listed = linkedShareIds(share.metadata[AFFINITY_KEYS[hint]]);
    const others = new Set([...listed, ...(share.schedulerHints?.[hint] ?? [])]);
    return [...others].map((other) => unlink(other, hint, shareId, other));
  });

/** Takes `linked` off the `hint` list of share `shareId`; `other` names the pair in its id. */
const unlink = (
  shareId: string,
  hint: AffinityHint,
  linked: string,
  other: string,
): AffinityLinkOutput => ({
  shareId,
  command: { type: 'UnlinkAffinity', hint, shareId: linked },
  purpose: `unlink:${hint}:${other}`,
});
