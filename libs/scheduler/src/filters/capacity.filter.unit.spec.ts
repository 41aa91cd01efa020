import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { capacityFilter } from './capacity.filter.js';

const onePool = (overrides: Record<string, unknown>) =>
  registryWith([{ backend: 'h@be', pools: [pool('p', overrides)] }]);

const passes = (overrides: Record<string, unknown>, input: Parameters<typeof keptBy>[2] = {}) =>
  keptBy(capacityFilter, onePool(overrides), input).length === 1;

describe('CapacityFilter', () => {
  describe('thick pools: floor(free - total * reserved) >= size', () => {
    it('passes when the effective free space is exactly the size', () => {
      expect(
        passes(
          { total_capacity_gb: 1000, free_capacity_gb: 110.9, reserved_percentage: 10 },
          { size: 10 },
        ),
      ).toBe(true);
    });

    it('fails one GiB above it', () => {
      expect(
        passes(
          { total_capacity_gb: 1000, free_capacity_gb: 110.9, reserved_percentage: 10 },
          { size: 11 },
        ),
      ).toBe(false);
    });

    it('uses reserved_snapshot_percentage for a request with a snapshot', () => {
      const overrides = {
        free_capacity_gb: 100,
        reserved_percentage: 0,
        reserved_snapshot_percentage: 10,
      };
      expect(passes(overrides, { size: 50 })).toBe(true);
      expect(passes(overrides, { size: 50, snapshotId: 'snap-1' })).toBe(false);
    });

    it('uses reserved_share_extend_percentage for an extend', () => {
      const overrides = { free_capacity_gb: 100, reserved_share_extend_percentage: 10 };
      expect(passes(overrides, { size: 50, isShareExtend: true })).toBe(false);
    });
  });

  describe('thin pools', () => {
    const thin = {
      thin_provisioning: true,
      total_capacity_gb: 100,
      free_capacity_gb: 10,
      provisioned_capacity_gb: 150,
      max_over_subscription_ratio: 2,
    };

    it('passes within the over-subscription ratio: (provisioned + size) / total <= ratio and free * ratio >= size', () => {
      expect(passes(thin, { size: 20 })).toBe(true);
    });

    it('fails beyond the ratio', () => {
      expect(passes(thin, { size: 51 })).toBe(false);
    });

    it('fails when free * ratio is short of the size', () => {
      expect(
        passes({ ...thin, provisioned_capacity_gb: 0, free_capacity_gb: 5 }, { size: 11 }),
      ).toBe(false);
    });

    it('fails a thin pool whose ratio is below 1', () => {
      expect(passes({ ...thin, max_over_subscription_ratio: 0.5 }, { size: 1 })).toBe(false);
    });

    it('counts a list with true as thin', () => {
      expect(passes({ ...thin, thin_provisioning: [true, false] }, { size: 20 })).toBe(true);
    });

    it('applies thick logic when the share type asks for thick provisioning', () => {
      const thickType = { id: 't', name: 'thick', extraSpecs: { thin_provisioning: 'False' } };
      expect(passes(thin, { size: 20, shareType: thickType })).toBe(false);
      expect(passes(thin, { size: 10, shareType: thickType })).toBe(true);
    });
  });

  describe('missing and unknown capacities', () => {
    it('fails a pool without free capacity', () => {
      expect(passes({ free_capacity_gb: null })).toBe(false);
    });

    it("passes a pool whose free capacity is 'unknown'", () => {
      expect(passes({ free_capacity_gb: 'unknown' }, { size: 1_000_000 })).toBe(true);
    });

    it("passes an 'unknown' total only without a reserve and with enough free space", () => {
      expect(passes({ total_capacity_gb: 'unknown', free_capacity_gb: 50 }, { size: 50 })).toBe(
        true,
      );
      expect(
        passes(
          { total_capacity_gb: 'unknown', free_capacity_gb: 50, reserved_percentage: 5 },
          { size: 1 },
        ),
      ).toBe(false);
    });

    it('fails a pool whose total is 0', () => {
      expect(passes({ total_capacity_gb: 0 }, { size: 1 })).toBe(false);
    });
  });
});
