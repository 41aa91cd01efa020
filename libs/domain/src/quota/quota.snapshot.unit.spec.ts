import { fold } from '../shared/decider.js';
import { DomainError } from '../shared/domain-error.js';
import { deciderSpec } from '../test-support/decider-spec.js';
import type { QuotaCommand } from './quota.commands.js';
import { quotaDecider } from './quota.decide.js';
import type { QuotaEvent } from './quota.events.js';
import { MANILA_DEFAULT_QUOTAS, shareCreationDeltas, type QuotaDeltas } from './quota.resources.js';
import { addDeltas, RECENT_WINDOW, type QuotaState } from './quota.state.js';

const spec = deciderSpec(quotaDecider);
const defaults = { ...MANILA_DEFAULT_QUOTAS, shares: 40, gigabytes: 400 };

const reserve = (holderId: string, deltas = shareCreationDeltas(1, false)): QuotaCommand => ({
  type: 'ReserveQuota',
  projectId: 'p1',
  holderId,
  holderKind: 'share',
  deltas,
  defaults,
  now: 't1',
});
const reserved = (holderId: string): QuotaEvent => ({
  type: 'QuotaReserved',
  data: {
    projectId: 'p1',
    holderId,
    holderKind: 'share',
    deltas: shareCreationDeltas(1, false),
    reservedAt: 't1',
  },
});
const releasedEvent = (holderId: string): QuotaEvent => ({
  type: 'QuotaReleased',
  data: { projectId: 'p1', holderId, deltas: shareCreationDeltas(1, false), releasedAt: 't2' },
});
/** `count` holders reserved and released in turn, named h0, h1, ... */
const churn = (count: number): QuotaEvent[] =>
  Array.from({ length: count }, (_, i) => [reserved(`h${i}`), releasedEvent(`h${i}`)]).flat();

describe('quota decider: the holders it remembers', () => {
  it(`does not count a holder again within the last ${RECENT_WINDOW} releases`, () =>
    spec.given(churn(RECENT_WINDOW)).when(reserve('h0')).thenNothing());

  it('keeps the state bounded however long the history and however many holders', () => {
    const live = (count: number) => Array.from({ length: count }, (_, i) => reserved(`live${i}`));
    const small = fold(quotaDecider, [...churn(2 * RECENT_WINDOW), ...live(RECENT_WINDOW)]);
    const large = fold(quotaDecider, [...churn(4 * RECENT_WINDOW), ...live(4 * RECENT_WINDOW)]);
    // Every id it remembers is a few characters: a record per holder would be 4,000 of them.
    const bound = 2 * RECENT_WINDOW * 16;
    expect(JSON.stringify(small).length).toBeLessThan(bound);
    expect(JSON.stringify(large).length).toBeLessThan(bound);
    expect(large.usage).toEqual({ shares: 4 * RECENT_WINDOW, gigabytes: 4 * RECENT_WINDOW });
    expect(large.counted).toHaveLength(RECENT_WINDOW);
    expect(large.released).toHaveLength(RECENT_WINDOW);
    expect(large.released.at(-1)).toBe(`h${4 * RECENT_WINDOW - 1}`);
  });

  it('folds a stream written before the window existed as it folds any other', () => {
    // The events are the same as ever: only what the state keeps of them changed.
    const state = fold(quotaDecider, churn(RECENT_WINDOW + 5));
    expect(state.released).toHaveLength(RECENT_WINDOW);
    expect(state.usage).toEqual({ shares: 0, gigabytes: 0 });
  });
});

/** A deterministic pseudo-random sequence (mulberry32), so a failure reproduces. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/**
 * Commands of every kind on new and recent holders, some over a limit, some repeated. The quota
 * keeps no record per holder: like the holders' own streams, the history keeps what each live
 * holder and adjustment counted, and a release or revert names it.
 */
const randomHistory = (seed: number, length: number): QuotaEvent[] => {
  const next = random(seed);
  const pick = (n: number) => Math.floor(next() * n);
  let holders = 0;
  const ledger = new Map<string, QuotaDeltas>();
  const adjustments = new Map<string, { holderId: string; deltas: QuotaDeltas }>();
  const recent = () => `h${Math.max(0, holders - 1 - pick(60))}`;
  const holder = () => {
    const live = [...ledger.keys()];
    return live.length > 0 && next() < 0.8 ? live[pick(live.length)]! : recent();
  };
  /** Only a holder that exists grows or shrinks (its share's decision sees to it). */
  const liveHolder = () => {
    const live = [...ledger.keys()];
    return live.length > 0 ? live[pick(live.length)]! : undefined;
  };
  const newHolder = () => (next() < 0.9 ? `h${holders++}` : recent());
  let state: QuotaState = quotaDecider.initialState();
  const events: QuotaEvent[] = [];
  for (let i = 0; i < length; i += 1) {
    const now = `t${i}`;
    const choice = pick(20);
    const subjects = { userId: `u${pick(3)}`, shareTypeId: `type${pick(2)}` };
    const released = holder();
    const adjustmentId = `a${pick(50)}`;
    const adjusted = liveHolder();
    const counted = adjustments.get(adjustmentId);
    const command: QuotaCommand | undefined =
      choice < 8
        ? { ...reserve(newHolder(), shareCreationDeltas(1 + pick(10), next() < 0.3)), ...subjects }
        : choice < 14
          ? {
              type: 'ReleaseQuota',
              projectId: 'p1',
              holderId: released,
              deltas: ledger.get(released) ?? {},
              now,
            }
          : choice < 17
            ? adjusted === undefined
              ? undefined
              : {
                  type: 'AdjustQuota',
                  projectId: 'p1',
                  holderId: adjusted,
                  adjustmentId,
                  deltas: { gigabytes: pick(11) - 5 },
                  newSize: 1 + pick(20),
                  defaults,
                  now,
                }
            : choice < 19
              ? counted && {
                  type: 'RevertQuotaAdjustment',
                  projectId: 'p1',
                  holderId: counted.holderId,
                  adjustmentId,
                  deltas: counted.deltas,
                  now,
                }
              : {
                  type: 'SetQuotaLimits',
                  projectId: 'p1',
                  scope:
                    next() < 0.5 ? { kind: 'project' } : { kind: 'user', userId: subjects.userId },
                  limits: { shares: 20 + pick(60), gigabytes: 200 + pick(600) },
                  force: next() < 0.5,
                  defaults,
                  now,
                };
    if (!command) continue;
    try {
      const decided = quotaDecider.decide(command, state);
      state = decided.reduce(quotaDecider.evolve, state);
      events.push(...decided);
      for (const event of decided) {
        if (event.type === 'QuotaReserved') ledger.set(event.data.holderId, event.data.deltas);
        if (event.type === 'QuotaReleased') ledger.delete(event.data.holderId);
        if (event.type === 'QuotaAdjusted') {
          const { holderId, deltas } = event.data;
          adjustments.set(event.data.adjustmentId, { holderId, deltas });
          ledger.set(holderId, addDeltas(ledger.get(holderId) ?? {}, deltas, 1));
        }
        if (event.type === 'QuotaAdjustmentReverted') {
          const { holderId, deltas } = event.data;
          const holding = ledger.get(holderId);
          if (holding) ledger.set(holderId, addDeltas(holding, deltas, -1));
        }
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return events;
};

/** A snapshot as the store keeps it: the state through JSON. */
const stored = (state: QuotaState): QuotaState => JSON.parse(JSON.stringify(state)) as QuotaState;

describe('quota state: a snapshot and the events after it', () => {
  it.each([1, 2, 3])(
    'fold into the state the whole stream folds into (random history, seed %i)',
    (seed) => {
      const events = randomHistory(seed, 9_000);
      expect(events.length).toBeGreaterThan(2_000);
      expect(events.filter((e) => e.type === 'QuotaReleased').length).toBeGreaterThan(
        RECENT_WINDOW,
      );
      const whole = fold(quotaDecider, events);
      const every = 50;
      let snapshot = quotaDecider.initialState();
      for (let revision = 0; revision < events.length; revision += 1) {
        snapshot = quotaDecider.evolve(snapshot, events[revision]!);
        if ((revision + 1) % every !== 0) continue;
        snapshot = stored(snapshot);
        const fromSnapshot = events.slice(revision + 1).reduce(quotaDecider.evolve, snapshot);
        if (revision % (every * 10) === every - 1) expect(fromSnapshot).toEqual(whole);
      }
      expect(events.reduce(quotaDecider.evolve, quotaDecider.initialState())).toEqual(whole);
      expect(stored(whole)).toEqual(whole);
    },
  );

  it('decides the same from a snapshot as from the whole stream', () => {
    const events = randomHistory(4, 3_000);
    const middle = Math.floor(events.length / 2);
    const fromSnapshot = events
      .slice(middle)
      .reduce(quotaDecider.evolve, stored(fold(quotaDecider, events.slice(0, middle))));
    const whole = fold(quotaDecider, events);
    for (let i = 0; i < 300; i += 1) {
      const command = reserve(`h${i}`);
      const decide = (state: QuotaState) => {
        try {
          return quotaDecider.decide(command, state);
        } catch (error) {
          return (error as Error).message;
        }
      };
      expect(decide(fromSnapshot)).toEqual(decide(whole));
    }
  });
});
