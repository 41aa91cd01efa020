import { deciderSpec } from '../test-support/decider-spec.js';
import { withReplica } from '../share/test-support/replica-history.js';
import { availableShare, later } from '../share/test-support/share-history.js';
import { countingNothing, decidedAsCounted, growthTo, sameDeltas } from './counted-request.js';
import { shareResizeDeltas } from './quota.resources.js';

/*
 * A request that counted quota from the share as it read it, decided (again) on the share as
 * it is: recorded only when the decision needs exactly what was counted.
 */
const extendTo4 = { type: 'ResizeShare', direction: 'extend', newSize: 4, now: later } as const;
const shrinkTo1 = { type: 'ResizeShare', direction: 'shrink', newSize: 1, now: later } as const;
const extendNeeds = growthTo(4, true);

describe('a request decided as its quota counted it', () => {
  it('given a replicated 2 GiB share with one replica, when an extend counted for both instances is decided, then it is recorded', () => {
    const counted = shareResizeDeltas(2, true, 2);
    deciderSpec(decidedAsCounted({ counted, needed: extendNeeds }))
      .given(withReplica())
      .when(extendTo4)
      .then([
        {
          type: 'ShareResizeRequested',
          data: {
            direction: 'extend',
            instanceIds: ['i1', 'r1'],
            newSize: 4,
            requestedAt: later,
          },
        },
      ]);
  });

  it('given a replica the request did not count (it was read before the replica existed), when the extend is decided, then it is refused as a conflict', () => {
    const counted = shareResizeDeltas(2, true, 1);
    deciderSpec(decidedAsCounted({ counted, needed: extendNeeds }))
      .given(withReplica())
      .when(extendTo4)
      .thenThrows('conflict', /changed by another request.*Send the request again/);
  });

  it('given an extend that counted nothing, when the share would take it, then it is refused as a conflict rather than recorded uncounted', () => {
    deciderSpec(decidedAsCounted(countingNothing(extendNeeds)))
      .given(availableShare())
      .when(extendTo4)
      .thenThrows('conflict', /changed by another request/);
  });

  it('given a decision that refuses the request, then its own refusal is the answer', () => {
    deciderSpec(decidedAsCounted(countingNothing(extendNeeds)))
      .given(availableShare())
      .when({ ...extendTo4, newSize: 2 })
      .thenThrows('invalid', /must be greater than current size/);
  });

  it('given a request that needs nothing counted, when it is decided, then it is recorded', () => {
    deciderSpec(decidedAsCounted(countingNothing(() => ({}))))
      .given(availableShare())
      .when(shrinkTo1)
      .then([
        {
          type: 'ShareResizeRequested',
          data: { direction: 'shrink', instanceIds: ['i1'], newSize: 1, requestedAt: later },
        },
      ]);
  });

  it('given a share already at the size, then growing to it counts nothing', () => {
    expect(growthTo(2, true)({ size: 2, instances: [] } as never)).toEqual({});
  });

  it('given deltas that name a resource at zero, then they equal deltas that leave it out', () => {
    expect(sameDeltas({ gigabytes: 0, shares: 1 }, { shares: 1 })).toBe(true);
    expect(sameDeltas({ gigabytes: 1 }, { replica_gigabytes: 1 })).toBe(false);
  });
});
