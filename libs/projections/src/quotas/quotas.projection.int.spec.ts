import { shareCreationDeltas, type QuotaEvent } from '#hawser/domain';
import { projectionSpec } from '../test-support/projection-spec.js';
import { QUOTAS, quotasProjection, type QuotaDocument } from './quotas.projection.js';

const reserved = (holderId: string, size: number): QuotaEvent => ({
  type: 'QuotaReserved',
  data: {
    projectId: 'p1',
    holderId,
    holderKind: 'share',
    deltas: shareCreationDeltas(size, true),
    reservedAt: 't1',
  },
});

describe('quotas projection', () => {
  it('given limits and two shares, when one is released, then usage counts the other', () =>
    projectionSpec(quotasProjection)
      .given({
        'quota-p1': [
          { type: 'QuotaLimitsSet', data: { projectId: 'p1', limits: { shares: 5 }, setAt: 't0' } },
          reserved('s1', 10),
          reserved('s2', 3),
        ],
      })
      .when({
        'quota-p1': [
          {
            type: 'QuotaReleased',
            data: {
              projectId: 'p1',
              holderId: 's1',
              deltas: shareCreationDeltas(10, true),
              releasedAt: 't2',
            },
          },
        ],
      })
      .then(async (docs) => {
        const doc = await docs.get<QuotaDocument>(QUOTAS, 'p1');
        expect(doc?.limits).toEqual({ shares: 5 });
        expect(doc?.in_use).toMatchObject({
          shares: 1,
          gigabytes: 3,
          share_replicas: 1,
          replica_gigabytes: 3,
          snapshots: 0,
        });
        expect(doc?.updated_at).toBe('t2');
      }));

  it('given limits, when they are reset, then none is left', () =>
    projectionSpec(quotasProjection)
      .given({
        'quota-p1': [
          { type: 'QuotaLimitsSet', data: { projectId: 'p1', limits: { shares: 5 }, setAt: 't0' } },
        ],
      })
      .when({
        'quota-p1': [{ type: 'QuotaLimitsReset', data: { projectId: 'p1', resetAt: 't1' } }],
      })
      .then(async (docs) => {
        expect((await docs.get<QuotaDocument>(QUOTAS, 'p1'))?.limits).toEqual({});
      }));

  it('given 1,200 shares reserved, when one more is, then the document counts them without naming them', () =>
    projectionSpec(quotasProjection)
      .given({ 'quota-p1': Array.from({ length: 1_200 }, (_, n) => reserved(`s${n}`, 1)) })
      .when({ 'quota-p1': [reserved('s-last', 2)] })
      .then(async (docs) => {
        const doc = await docs.get<QuotaDocument>(QUOTAS, 'p1');
        expect(doc?.in_use).toMatchObject({ shares: 1_201, gigabytes: 1_202 });
        expect(doc?.state.usage).toEqual({
          shares: 1_201,
          gigabytes: 1_202,
          share_replicas: 1_201,
          replica_gigabytes: 1_202,
        });
        expect(doc?.state.counted).toEqual([]);
        expect(JSON.stringify(doc)).not.toContain('s-last');
      }));
});
