import type { PoolCapabilities } from '#hawser/drivers';
import { lackOfRoom, type RoomQuestion } from './pool-room.js';

const pool = (overrides: Partial<PoolCapabilities> = {}): PoolCapabilities =>
  ({
    pool_name: 'p0',
    total_capacity_gb: 100,
    free_capacity_gb: 100,
    provisioned_capacity_gb: 0,
    reserved_percentage: 0,
    reserved_snapshot_percentage: 0,
    thin_provisioning: false,
    max_over_subscription_ratio: 1,
    ...overrides,
  }) as PoolCapabilities;

const ask = (question: Partial<RoomQuestion>): RoomQuestion => ({
  sizeGiB: 10,
  reservedGiB: 0,
  thinLogic: true,
  fromSnapshot: false,
  ...question,
});

describe('whether a pool still holds a share (CapacityFilter on the node figures)', () => {
  it('counts the placements not yet reported against the free space', () => {
    expect(lackOfRoom(pool(), ask({ sizeGiB: 40, reservedGiB: 60 }))).toBeNull();
    expect(lackOfRoom(pool(), ask({ sizeGiB: 41, reservedGiB: 60 }))).toBe(
      'Pool p0 cannot hold 41 GiB: 40 GiB free (60 GiB placed here and not yet reported, 0% reserved).',
    );
  });

  it('keeps the reserved percentage free, the snapshot one for clones', () => {
    const reserving = pool({ reserved_percentage: 10, reserved_snapshot_percentage: 0 });
    expect(lackOfRoom(reserving, ask({ sizeGiB: 91 }))).toMatch(/90 GiB free/);
    expect(lackOfRoom(reserving, ask({ sizeGiB: 91, fromSnapshot: true }))).toBeNull();
  });

  it('bounds a thin pool by its over-subscription ratio, counting the reservations as provisioned', () => {
    const thin = pool({ thin_provisioning: true, max_over_subscription_ratio: 2 });
    const question = ask({ sizeGiB: 50, reservedGiB: 40 });
    expect(lackOfRoom(pool({ ...thin, provisioned_capacity_gb: 110 }), question)).toBeNull();
    expect(lackOfRoom(pool({ ...thin, provisioned_capacity_gb: 111 }), question)).toMatch(
      /201 GiB provisioned .* would exceed 100 GiB x 2/,
    );
    // A type asking for thick shares is checked against free space alone.
    expect(lackOfRoom(thin, { ...question, sizeGiB: 61, thinLogic: false })).toMatch(/60 GiB free/);
  });

  it('lets unknown capacities pass, as Manila does', () => {
    expect(lackOfRoom(pool({ free_capacity_gb: 'unknown' }), ask({ sizeGiB: 1e6 }))).toBeNull();
  });
});
