import { capabilitiesSatisfied } from './capability-requirements.js';
import { matchRequirement, parseRequirement } from './extra-spec-match.js';
import { useThinLogic } from '../request/scheduling-context.js';

// Expected outcomes come from Manila 15.1's extra_specs_ops.match and utils on the same input.
describe('extra-spec matching (CapabilitiesFilter operators)', () => {
  it.each<[unknown, string, boolean]>([
    [true, '<is> True', true],
    [true, '<is> False', false],
    [false, '<is> false', true],
    ['garbage', '<is> false', true],
    [1, '<is> true', true],
    ['NFS_CIFS', '<in> NFS', true],
    ['NFS', '<in> CIFS', false],
    ['nfs', '<in> NFS', true],
    ['readable', '<or> dr <or> readable', true],
    ['writable', '<or> dr <or> readable', false],
    [5, '<or> 5', false],
    [10, '= 5', true],
    [5, '= 10', false],
    [10, '>= 10', true],
    [9.5, '<= 10', true],
    [10, '== 10.0', true],
    [10, '!= 10', false],
    ['12', '>= 10', true],
    ['abc', '>= 10', false],
    [true, '>= 1', true],
    ['abc', 's== ABC', true],
    ['abc', 's!= abc', false],
    ['abc', 's< abd', true],
    ['abc', 's<= abc', true],
    ['b', 's> a', true],
    ['b', 's>= c', false],
    [true, 'True', true],
    [false, 'False', true],
    [true, 'maybe', false],
    ['readable', 'readable', true],
    ['Readable', 'READABLE', true],
    [10, '10', false],
    [null, '<is> True', false],
    [null, 'x', false],
    ['x y', '<all-in> x', false],
    [true, '<is>', false],
  ])('match(%j, %j) is %s', (value, requirement, expected) => {
    expect(matchRequirement(value, parseRequirement(requirement))).toBe(expected);
  });

  describe('capabilities_satisfied over a pool', () => {
    const capabilities = {
      thin_provisioning: [true, false],
      dedupe: false,
      replication_type: null,
      nested: { level: 'gold' },
      pool_name: 'p1',
    };

    it.each<[Record<string, string>, boolean]>([
      [{ thin_provisioning: '<is> True' }, true],
      [{ thin_provisioning: '<is> False' }, true],
      [{ dedupe: 'False' }, true],
      [{ replication_type: 'readable' }, false],
      [{ 'capabilities:nested:level': 'gold' }, true],
      [{ 'nested:level': 'gold' }, true],
      [{ availability_zones: 'az-9' }, true],
      [{ 'capabilities:pool_name': 'p1' }, true],
      [{ missing: 'x' }, false],
      [{ 'capabilities:pool_name': '<or> p2 <or> p1' }, true],
    ])('%j gives %s', (specs, expected) => {
      expect(capabilitiesSatisfied(capabilities, specs)).toBe(expected);
    });
  });

  describe('use_thin_logic', () => {
    it.each<[Record<string, string>, boolean]>([
      [{}, true],
      [{ thin_provisioning: 'False' }, false],
      [{ thin_provisioning: '<is> True' }, true],
      [{ thin_provisioning: '<is> False' }, false],
      [{ 'capabilities:thin_provisioning': 'no' }, false],
      [{ thin_provisioning: 'junk' }, false],
    ])('%j gives %s', (specs, expected) => {
      expect(useThinLogic(specs)).toBe(expected);
    });
  });
});
