import type { Decider } from '../shared/decider.js';
import { conflict } from '../shared/domain-error.js';
import type { ShareCommand } from '../share/share.commands.js';
import { shareDecider } from '../share/share.decide.js';
import type { ShareEvent } from '../share/share.events.js';
import { activeShareOrUndefined, type ActiveShare, type ShareState } from '../share/share.state.js';
import { QUOTA_RESOURCES, shareResizeDeltas, type QuotaDeltas } from './quota.resources.js';

/**
 * What a request counted against the quota before it was decided (from the share it read), and
 * what its decision needs counted on the share it is decided on. They differ when another
 * request changed the share in between: a size, a replica.
 */
export interface CountedRequest {
  readonly counted: QuotaDeltas;
  readonly needed: (share: ActiveShare) => QuotaDeltas;
}

/** Nothing counted: a request whose decision must not grow what the quota counts. */
export const countingNothing = (needed: (share: ActiveShare) => QuotaDeltas): CountedRequest => ({
  counted: {},
  needed,
});

/** What growing a share to `newSize` GiB counts on `share` as it is: nothing if it is not smaller. */
export const growthTo =
  (newSize: number, replicated: boolean) =>
  (share: ActiveShare): QuotaDeltas =>
    newSize > share.size
      ? shareResizeDeltas(newSize - share.size, replicated, share.instances.length)
      : {};

export const sameDeltas = (a: QuotaDeltas, b: QuotaDeltas): boolean =>
  QUOTA_RESOURCES.every((resource) => (a[resource] ?? 0) === (b[resource] ?? 0));

/**
 * `decider`, refusing (409) a decision that would record a change other than the one counted.
 * So a request decided again on a newer revision of the share (after a conflicting append)
 * records only what its quota already counts, and the quota cannot drift from what exists.
 */
export const decidedAsCounted = (
  request: CountedRequest,
  decider: Decider<ShareState, ShareCommand, ShareEvent> = shareDecider,
): Decider<ShareState, ShareCommand, ShareEvent> => ({
  ...decider,
  decide: (command, state) => {
    const events = decider.decide(command, state);
    const share = activeShareOrUndefined(state);
    if (events.length > 0 && share && !sameDeltas(request.counted, request.needed(share))) {
      throw conflict(
        `Share ${share.id} was changed by another request while this one was counted against ` +
          'the quota: nothing was changed and nothing stays counted. Send the request again.',
      );
    }
    return events;
  },
});
