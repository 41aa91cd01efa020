import { deciderSpec } from '../test-support/decider-spec.js';
import { fold } from '../shared/decider.js';
import type { QuotaCommand } from './quota.commands.js';
import { quotaDecider } from './quota.decide.js';
import type { QuotaEvent } from './quota.events.js';
import { MANILA_DEFAULT_QUOTAS, shareCreationDeltas, type QuotaScope } from './quota.resources.js';
import { typeLimits, upcastQuotaState, userLimits } from './quota.state.js';

const spec = deciderSpec(quotaDecider);
const defaults = MANILA_DEFAULT_QUOTAS;
const alice = { userId: 'alice', shareTypeId: 'gold' };

const reserve = (holderId: string, size: number, subjects = alice): QuotaCommand => ({
  type: 'ReserveQuota',
  projectId: 'p1',
  ...subjects,
  holderId,
  holderKind: 'share',
  deltas: shareCreationDeltas(size, false),
  defaults,
  now: 't1',
});
const reserved = (holderId: string, size: number, subjects = alice): QuotaEvent => ({
  type: 'QuotaReserved',
  data: {
    projectId: 'p1',
    ...subjects,
    holderId,
    holderKind: 'share',
    deltas: shareCreationDeltas(size, false),
    reservedAt: 't1',
  },
});
const released = (holderId: string, size: number, subjects = alice): QuotaEvent => ({
  type: 'QuotaReleased',
  data: {
    projectId: 'p1',
    ...subjects,
    holderId,
    deltas: shareCreationDeltas(size, false),
    releasedAt: 't2',
  },
});
const scopeFields = (scope: QuotaScope) =>
  scope.kind === 'user'
    ? { userId: scope.userId }
    : scope.kind === 'share_type'
      ? { shareTypeId: scope.shareTypeId }
      : {};
const limitsSet = (scope: QuotaScope, limits: Record<string, number>): QuotaEvent => ({
  type: 'QuotaLimitsSet',
  data: { projectId: 'p1', ...scopeFields(scope), limits, setAt: 't0' },
});
const set = (scope: QuotaScope, limits: Record<string, number>, force = false): QuotaCommand => ({
  type: 'SetQuotaLimits',
  projectId: 'p1',
  scope,
  limits,
  force,
  defaults,
  now: 't0',
});
const user = (userId: string): QuotaScope => ({ kind: 'user', userId });
const type = (shareTypeId: string): QuotaScope => ({ kind: 'share_type', shareTypeId });
const project: QuotaScope = { kind: 'project' };

describe('quota decider: users and share types (Manila 2.39 onwards)', () => {
  describe('a reservation fits the project, the user and the share type', () => {
    it("refuses a share past the user's limit, though the project has room", () =>
      spec
        .given([limitsSet(user('alice'), { shares: 1 }), reserved('s1', 1)])
        .when(reserve('s2', 1))
        .thenThrows(
          'over_limit',
          /^ShareLimitExceeded: Maximum number of shares allowed \(1\) exceeded\.$/,
        ));

    it("counts another user's share in the project while the first is at its limit", () =>
      spec
        .given([limitsSet(user('alice'), { shares: 1 }), reserved('s1', 1)])
        .when(reserve('s2', 1, { userId: 'bob', shareTypeId: 'gold' }))
        .then([reserved('s2', 1, { userId: 'bob', shareTypeId: 'gold' })]));

    it("refuses gigabytes past the share type's limit, whoever asks", () =>
      spec
        .given([limitsSet(type('gold'), { gigabytes: 10 }), reserved('s1', 8)])
        .when(reserve('s2', 3, { userId: 'bob', shareTypeId: 'gold' }))
        .thenThrows('over_limit', /^ShareSizeExceedsAvailableQuota: /));

    it("refuses past the project's limit even where the user's and the type's allow it", () =>
      spec
        .given([
          limitsSet(project, { shares: 1 }),
          limitsSet(user('alice'), { shares: 1 }),
          reserved('s1', 1, { userId: 'bob', shareTypeId: 'silver' }),
        ])
        .when(reserve('s2', 1))
        .thenThrows('over_limit', /ShareLimitExceeded/));

    it('gives back to the user and the type what a release names', () => {
      const state = fold(quotaDecider, [reserved('s1', 4), reserved('s2', 2), released('s1', 4)]);
      expect(state.usage).toEqual({ shares: 1, gigabytes: 2 });
      expect(state.userUsage.alice).toEqual({ shares: 1, gigabytes: 2 });
      expect(state.typeUsage.gold).toEqual({ shares: 1, gigabytes: 2 });
    });

    it('counts a user or type release of a holder reserved before them no lower than zero', () => {
      const before = reserved('s1', 4, {} as typeof alice);
      const state = fold(quotaDecider, [before, released('s1', 4)]);
      expect(state.usage).toEqual({ shares: 0, gigabytes: 0 });
      expect(state.userUsage.alice).toEqual({ shares: 0, gigabytes: 0 });
    });
  });

  describe("setting a user's or a share type's limits (Manila's settable range)", () => {
    it("falls back to the project's limits, then the defaults", () => {
      const state = fold(quotaDecider, [
        limitsSet(project, { shares: 9 }),
        limitsSet(user('alice'), { gigabytes: 7 }),
      ]);
      expect(userLimits(state, 'alice', defaults)).toMatchObject({
        shares: 9,
        gigabytes: 7,
        snapshots: 50,
      });
      expect(typeLimits(state, 'gold', defaults)).toMatchObject({ shares: 9, gigabytes: 1000 });
    });

    it("refuses a user's limit above the project's, as Manila does", () =>
      spec
        .given([limitsSet(project, { shares: 10 })])
        .when(set(user('alice'), { shares: 11 }))
        .thenThrows('invalid', /^Quota limit must be less than 10\.$/));

    it("refuses a share type's limit above the project's default too", () =>
      spec
        .given([])
        .when(set(type('gold'), { shares: 51 }))
        .thenThrows('invalid', /^Quota limit must be less than 50\.$/));

    it('takes it with force', () =>
      spec
        .given([limitsSet(project, { shares: 10 })])
        .when(set(user('alice'), { shares: 11 }, true))
        .then([limitsSet(user('alice'), { shares: 11 })]));

    it('refuses an unlimited user in a limited project, and takes it in an unlimited one', () => {
      spec
        .given([])
        .when(set(user('alice'), { shares: -1 }))
        .thenThrows('invalid', /^Quota limit must be greater than 0\.$/);
      spec
        .given([limitsSet(project, { shares: -1 })])
        .when(set(user('alice'), { shares: -1 }))
        .then([limitsSet(user('alice'), { shares: -1 })]);
    });

    it("refuses a user's limit below what the user uses", () =>
      spec
        .given([reserved('s1', 1), reserved('s2', 1)])
        .when(set(user('alice'), { shares: 1 }))
        .thenThrows(
          'invalid',
          /^Quota value 1 for shares is smaller than already used and reserved 2\.$/,
        ));

    it("refuses a project's limit below its users' limits together", () =>
      spec
        .given([limitsSet(user('alice'), { shares: 5 }), limitsSet(user('bob'), { shares: 5 })])
        .when(set(project, { shares: 8 }))
        .thenThrows('invalid', /^Quota limit must be greater than 10\.$/));
  });

  describe('deleting them', () => {
    it("takes a user back to the project's limits", () => {
      const events = [limitsSet(project, { shares: 9 }), limitsSet(user('alice'), { shares: 3 })];
      spec
        .given(events)
        .when({ type: 'ResetQuotaLimits', projectId: 'p1', scope: user('alice'), now: 't3' })
        .then([
          { type: 'QuotaLimitsReset', data: { projectId: 'p1', userId: 'alice', resetAt: 't3' } },
        ]);
      const state = fold(quotaDecider, [
        ...events,
        { type: 'QuotaLimitsReset', data: { projectId: 'p1', userId: 'alice', resetAt: 't3' } },
      ]);
      expect(userLimits(state, 'alice', defaults).shares).toBe(9);
    });

    it('records nothing for a share type that has no limits of its own', () =>
      spec
        .given([limitsSet(project, { shares: 9 })])
        .when({ type: 'ResetQuotaLimits', projectId: 'p1', scope: type('gold'), now: 't3' })
        .thenNothing());

    it("deletes the users' and types' limits with the project's, as Manila does", () => {
      const state = fold(quotaDecider, [
        limitsSet(user('alice'), { shares: 3 }),
        limitsSet(type('gold'), { shares: 4 }),
        { type: 'QuotaLimitsReset', data: { projectId: 'p1', resetAt: 't3' } },
      ]);
      expect([state.limits, state.userLimits, state.typeLimits]).toEqual([{}, {}, {}]);
    });
  });
});

describe('quota state of version 1', () => {
  it('is read as counters: the sum of its holdings', () => {
    const v1 = {
      limits: { shares: 9 },
      holdings: {
        s1: { holderKind: 'share', deltas: { shares: 1, gigabytes: 4 } },
        s2: { holderKind: 'share', deltas: { shares: 1, gigabytes: 2 } },
      },
      released: ['s0'],
    };
    const state = upcastQuotaState(v1 as never);
    expect(state.usage).toEqual({ shares: 2, gigabytes: 6 });
    expect(state.limits).toEqual({ shares: 9 });
    expect(state.counted).toEqual(['s1', 's2']);
    expect(state.released).toEqual(['s0']);
  });
});
