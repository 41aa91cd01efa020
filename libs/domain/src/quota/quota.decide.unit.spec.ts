import { deciderSpec } from '../test-support/decider-spec.js';
import type { QuotaCommand } from './quota.commands.js';
import { quotaDecider } from './quota.decide.js';
import type { QuotaEvent } from './quota.events.js';
import {
  MANILA_DEFAULT_QUOTAS,
  shareCreationDeltas,
  snapshotCreationDeltas,
} from './quota.resources.js';

const spec = deciderSpec(quotaDecider);
const defaults = MANILA_DEFAULT_QUOTAS;

const reserve = (holderId: string, size: number, replicated = false): QuotaCommand => ({
  type: 'ReserveQuota',
  projectId: 'p1',
  holderId,
  holderKind: 'share',
  deltas: shareCreationDeltas(size, replicated),
  defaults,
  now: 't1',
});
const reserved = (holderId: string, size: number, replicated = false): QuotaEvent => ({
  type: 'QuotaReserved',
  data: {
    projectId: 'p1',
    holderId,
    holderKind: 'share',
    deltas: shareCreationDeltas(size, replicated),
    reservedAt: 't1',
  },
});
const limitsSet = (limits: Record<string, number>): QuotaEvent => ({
  type: 'QuotaLimitsSet',
  data: { projectId: 'p1', limits, setAt: 't0' },
});
const release = (holderId: string, deltas = shareCreationDeltas(10, false)): QuotaCommand => ({
  type: 'ReleaseQuota',
  projectId: 'p1',
  holderId,
  deltas,
  now: 't2',
});

describe('quota decider', () => {
  describe('reserving', () => {
    it('counts a share within the default limits', () =>
      spec
        .given([])
        .when(reserve('s1', 10))
        .then([reserved('s1', 10)]));

    it('counts replicas too for a replication-capable type', () =>
      spec
        .given([])
        .when(reserve('s1', 10, true))
        .then([reserved('s1', 10, true)]));

    it('counts a holder once however often it is asked', () =>
      spec
        .given([reserved('s1', 10)])
        .when(reserve('s1', 10))
        .thenNothing());

    it('does not count a released holder again', () =>
      spec
        .given([
          reserved('s1', 10),
          {
            type: 'QuotaReleased',
            data: {
              projectId: 'p1',
              holderId: 's1',
              deltas: shareCreationDeltas(10, false),
              releasedAt: 't2',
            },
          },
        ])
        .when(reserve('s1', 10))
        .thenNothing());

    it('refuses the share past the shares limit with Manila message', () =>
      spec
        .given([limitsSet({ shares: 1 }), reserved('s1', 1)])
        .when(reserve('s2', 1))
        .thenThrows(
          'over_limit',
          /^ShareLimitExceeded: Maximum number of shares allowed \(1\) exceeded\.$/,
        ));

    it('checks gigabytes before shares, as Manila does', () =>
      spec
        .given([limitsSet({ shares: 1, gigabytes: 5 }), reserved('s1', 1)])
        .when(reserve('s2', 5))
        .thenThrows('over_limit', /^ShareSizeExceedsAvailableQuota: /));

    it('lets the share take exactly the last unit', () =>
      spec
        .given([limitsSet({ gigabytes: 5 }), reserved('s1', 2)])
        .when(reserve('s2', 3))
        .then([reserved('s2', 3)]));

    it('refuses replicas past their limit', () =>
      spec
        .given([limitsSet({ share_replicas: 0 })])
        .when(reserve('s1', 1, true))
        .thenThrows('over_limit', /^ShareReplicasLimitExceeded/));

    it('refuses a share larger than per_share_gigabytes', () =>
      spec
        .given([limitsSet({ per_share_gigabytes: 4 })])
        .when(reserve('s1', 5))
        .thenThrows(
          'over_limit',
          /^ShareSizeExceedsLimit: Requested share size 5 is larger than maximum allowed limit 4\.$/,
        ));

    it('never refuses an unlimited resource', () =>
      spec
        .given([limitsSet({ gigabytes: -1 })])
        .when(reserve('s1', 100_000))
        .then([reserved('s1', 100_000)]));

    it('reserves snapshots with the same command', () =>
      spec
        .given([limitsSet({ snapshots: 0 })])
        .when({
          type: 'ReserveQuota',
          projectId: 'p1',
          holderId: 'snap1',
          holderKind: 'snapshot',
          deltas: snapshotCreationDeltas(10),
          defaults,
          now: 't1',
        })
        .thenThrows(
          'over_limit',
          /^SnapshotLimitExceeded: Maximum number of snapshots allowed \(0\) exceeded\.$/,
        ));
  });

  describe('releasing', () => {
    it('releases what the holder counted', () =>
      spec
        .given([reserved('s1', 10)])
        .when(release('s1'))
        .then([
          {
            type: 'QuotaReleased',
            data: {
              projectId: 'p1',
              holderId: 's1',
              deltas: shareCreationDeltas(10, false),
              releasedAt: 't2',
            },
          },
        ]));

    it('releases once', () =>
      spec
        .given([
          reserved('s1', 10),
          {
            type: 'QuotaReleased',
            data: {
              projectId: 'p1',
              holderId: 's1',
              deltas: shareCreationDeltas(10, false),
              releasedAt: 't2',
            },
          },
        ])
        .when(release('s1'))
        .thenNothing());

    it('frees what the release names for the next reservation', () =>
      spec
        .given([limitsSet({ gigabytes: 10 }), reserved('s1', 10)])
        .when(reserve('s2', 10))
        .thenThrows('over_limit', /ShareSizeExceedsAvailableQuota/));
  });

  describe('limits', () => {
    const set = (limits: Record<string, number>, force = false): QuotaCommand => ({
      type: 'SetQuotaLimits',
      projectId: 'p1',
      scope: { kind: 'project' },
      limits,
      force,
      defaults,
      now: 't0',
    });

    it('sets limits', () =>
      spec
        .given([])
        .when(set({ shares: 3 }))
        .then([limitsSet({ shares: 3 })]));

    it('refuses a limit below what is in use', () =>
      spec
        .given([reserved('s1', 10)])
        .when(set({ gigabytes: 5 }))
        .thenThrows(
          'invalid',
          /^Quota value 5 for gigabytes is smaller than already used and reserved 10\.$/,
        ));

    it('accepts it with force', () =>
      spec
        .given([reserved('s1', 10)])
        .when(set({ gigabytes: 5 }, true))
        .then([limitsSet({ gigabytes: 5 })]));

    it('refuses limits below -1 and fractions', () => {
      spec
        .given([])
        .when(set({ shares: -2 }))
        .thenThrows('invalid', /^Quota limit must be -1 or greater\.$/);
      spec
        .given([])
        .when(set({ shares: 1.5 }))
        .thenThrows('invalid', /must be an integer/);
    });

    it('resets to the defaults', () =>
      spec
        .given([limitsSet({ shares: 3 })])
        .when({ type: 'ResetQuotaLimits', projectId: 'p1', scope: { kind: 'project' }, now: 't3' })
        .then([{ type: 'QuotaLimitsReset', data: { projectId: 'p1', resetAt: 't3' } }]));

    it('records nothing when there is nothing to reset', () =>
      spec
        .given([])
        .when({ type: 'ResetQuotaLimits', projectId: 'p1', scope: { kind: 'project' }, now: 't3' })
        .thenNothing());
  });

  describe('adjusting a holder (extend, shrink)', () => {
    const adjust = (adjustmentId: string, gigabytes: number): QuotaCommand => ({
      type: 'AdjustQuota',
      projectId: 'p1',
      holderId: 's1',
      adjustmentId,
      deltas: { gigabytes },
      newSize: 10 + gigabytes,
      defaults,
      now: 't3',
    });
    const adjusted = (adjustmentId: string, gigabytes: number): QuotaEvent => ({
      type: 'QuotaAdjusted',
      data: {
        projectId: 'p1',
        holderId: 's1',
        adjustmentId,
        deltas: { gigabytes },
        adjustedAt: 't3',
      },
    });
    const revert = (adjustmentId: string, gigabytes = 5): QuotaCommand => ({
      type: 'RevertQuotaAdjustment',
      projectId: 'p1',
      holderId: 's1',
      adjustmentId,
      deltas: { gigabytes },
      now: 't4',
    });
    const reverted = (adjustmentId: string, gigabytes: number): QuotaEvent => ({
      type: 'QuotaAdjustmentReverted',
      data: {
        projectId: 'p1',
        holderId: 's1',
        adjustmentId,
        deltas: { gigabytes },
        revertedAt: 't4',
      },
    });

    it('counts an extend within the limits', () =>
      spec
        .given([reserved('s1', 10)])
        .when(adjust('x1', 5))
        .then([adjusted('x1', 5)]));

    it("refuses an extend over the project's gigabytes with Manila's message", () =>
      spec
        .given([limitsSet({ gigabytes: 12 }), reserved('s1', 10)])
        .when(adjust('x1', 5))
        .thenThrows('over_limit', /ShareSizeExceedsAvailableQuota/));

    it('checks the new size, not the increase, against per_share_gigabytes', () =>
      spec
        .given([limitsSet({ per_share_gigabytes: 12 }), reserved('s1', 10)])
        .when(adjust('x1', 5))
        .thenThrows(
          'over_limit',
          /Requested share size 15 is larger than maximum allowed limit 12/,
        ));

    it('takes a shrink without checking limits, even over them', () =>
      spec
        .given([reserved('s1', 10), limitsSet({ gigabytes: 5 })])
        .when(adjust('x1', -4))
        .then([adjusted('x1', -4)]));

    it('counts an adjustment id once, even after it was reverted', () => {
      spec
        .given([reserved('s1', 10), adjusted('x1', 5)])
        .when(adjust('x1', 5))
        .thenNothing();
      spec
        .given([reserved('s1', 10), adjusted('x1', 5), reverted('x1', 5)])
        .when(adjust('x1', 5))
        .thenNothing();
    });

    it('reverts the amounts the adjustment counted, once', () => {
      spec
        .given([reserved('s1', 10), adjusted('x1', 5)])
        .when(revert('x1'))
        .then([reverted('x1', 5)]);
      spec
        .given([reserved('s1', 10), adjusted('x1', 5), reverted('x1', 5)])
        .when(revert('x1'))
        .thenNothing();
    });

    it('frees what a reverted extend counted for the next reservation', () =>
      spec
        .given([
          limitsSet({ gigabytes: 15 }),
          reserved('s1', 10),
          adjusted('x1', 5),
          reverted('x1', 5),
        ])
        .when(reserve('s2', 5))
        .then([reserved('s2', 5)]));
  });
});
