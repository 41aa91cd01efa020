import { matchesExtraSpecs } from './extra-specs-filter.js';

const specs = {
  driver_handles_share_servers: 'False',
  snapshot_support: 'True',
  availability_zones: 'az-1,az-2',
};

describe('the share-type listing extra_specs filter', () => {
  it.each([
    [{}, true],
    [{ snapshot_support: 'True' }, true],
    [{ snapshot_support: 'False' }, false],
    [{ snapshot_support: 'true' }, false],
    [{ replication_type: 'dr' }, false],
    [{ snapshot_support: 'True', driver_handles_share_servers: 'True' }, false],
    [{ availability_zones: 'az-2' }, true],
    [{ availability_zones: 'az-1, az-2' }, true],
    [{ availability_zones: 'az-1,az-3' }, false],
  ])('%j matches: %s', (wanted, expected) => {
    expect(matchesExtraSpecs(specs, wanted)).toBe(expected);
  });

  it('lets a type without zones serve any zone', () => {
    expect(matchesExtraSpecs({ snapshot_support: true }, { availability_zones: 'az-9' })).toBe(
      true,
    );
    expect(matchesExtraSpecs({ snapshot_support: true }, { snapshot_support: 'true' })).toBe(true);
  });
});
