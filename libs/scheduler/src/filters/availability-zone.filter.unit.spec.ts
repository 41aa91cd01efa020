import { keptBy, pool, registryWith } from '../test-support/scheduler-fixtures.js';
import { availabilityZoneFilter } from './availability-zone.filter.js';

describe('AvailabilityZoneFilter', () => {
  const registry = registryWith([
    { backend: 'h1@be1', zone: 'az-1', pools: [pool('a')] },
    {
      backend: 'h2@be1',
      zone: 'az-2',
      pools: [pool('a', { share_server_multiple_subnet_support: true })],
    },
    { backend: 'h3@be1', zone: 'az-3', pools: [pool('a')] },
  ]);

  it('passes every pool when the request names no AZ and the type lists none', () => {
    expect(keptBy(availabilityZoneFilter, registry)).toHaveLength(3);
  });

  it('keeps the back ends of the requested AZ', () => {
    expect(keptBy(availabilityZoneFilter, registry, { availabilityZone: 'az-2' })).toEqual([
      'h2@be1#a',
    ]);
  });

  it("keeps the back ends in the share type's availability_zones", () => {
    expect(
      keptBy(availabilityZoneFilter, registry, { availabilityZones: ['az-1', 'az-3'] }),
    ).toEqual(['h1@be1#a', 'h3@be1#a']);
  });

  it('needs both: the requested AZ must also be in the list', () => {
    expect(
      keptBy(availabilityZoneFilter, registry, {
        availabilityZone: 'az-2',
        availabilityZones: ['az-1'],
      }),
    ).toEqual([]);
  });

  it('drops pools without multiple-subnet support where the request needs it', () => {
    expect(
      keptBy(availabilityZoneFilter, registry, {
        multipleSubnetSupportByZone: { 'az-1': true, 'az-2': true },
      }),
    ).toEqual(['h2@be1#a', 'h3@be1#a']);
  });
});
