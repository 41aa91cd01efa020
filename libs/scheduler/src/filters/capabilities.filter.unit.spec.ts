import { schedulingContext } from '../request/scheduling-context.js';
import { keptBy, pool, registryWith, request } from '../test-support/scheduler-fixtures.js';
import { capabilitiesFilter } from './capabilities.filter.js';

const type = (extraSpecs: Record<string, string>) => ({
  shareType: { id: 't', name: 't', extraSpecs },
});

describe('CapabilitiesFilter', () => {
  const registry = registryWith([
    {
      backend: 'h1@be',
      pools: [pool('nfs', { storage_protocol: 'NFS', share_backend_name: 'GOLD' })],
    },
    {
      backend: 'h2@be',
      pools: [
        pool('cephfs', {
          storage_protocol: 'CEPHFS',
          driver_handles_share_servers: true,
          replication_type: 'dr',
        }),
      ],
    },
  ]);

  it('matches the implicit <in> share_proto spec against storage_protocol', () => {
    expect(keptBy(capabilitiesFilter, registry, { shareProto: 'NFS' })).toEqual(['h1@be#nfs']);
    expect(keptBy(capabilitiesFilter, registry, { shareProto: 'CEPHFS' })).toEqual([
      'h2@be#cephfs',
    ]);
  });

  it('rewrites boolean specs to <is> before matching', () => {
    expect(
      keptBy(capabilitiesFilter, registry, {
        shareProto: null,
        ...type({ driver_handles_share_servers: 'True' }),
      }),
    ).toEqual(['h2@be#cephfs']);
  });

  it('fails a pool whose capability is null (replication_type of a non-replicating pool)', () => {
    expect(
      keptBy(capabilitiesFilter, registry, {
        shareProto: null,
        ...type({ replication_type: 'dr' }),
      }),
    ).toEqual(['h2@be#cephfs']);
  });

  it('ignores share_backend_name for clones and replicas', () => {
    const spec = { shareProto: null, ...type({ share_backend_name: 'GOLD' }) };
    expect(keptBy(capabilitiesFilter, registry, spec)).toEqual(['h1@be#nfs']);
    expect(
      keptBy(capabilitiesFilter, registry, {
        ...spec,
        snapshot: { id: 's', host: 'h2@be#cephfs', shareAvailabilityZone: null },
      }),
    ).toEqual(['h1@be#nfs', 'h2@be#cephfs']);
  });

  it('reads scoped capabilities: keys and ignores other scopes', () => {
    expect(
      keptBy(capabilitiesFilter, registry, {
        shareProto: null,
        ...type({ 'capabilities:storage_protocol': 's== cephfs', 'other:x': 'y' }),
      }),
    ).toEqual(['h2@be#cephfs']);
  });

  it('sees a new report: the cached outcome of a pool is redone when its capabilities change', () => {
    const changing = registryWith([
      { backend: 'h@be', pools: [pool('p', { storage_protocol: 'NFS' })] },
    ]);
    expect(keptBy(capabilitiesFilter, changing, { shareProto: 'CIFS' })).toEqual([]);
    changing.report('h@be', [pool('p', { storage_protocol: 'NFS_CIFS' })], 1, 'az-1');
    expect(keptBy(capabilitiesFilter, changing, { shareProto: 'CIFS' })).toEqual(['h@be#p']);
  });

  it('follows a capability whose value changes with every report (distinct values pile up, then compact)', () => {
    const changing = registryWith([{ backend: 'h@be', pools: [pool('p', { iops: 0 })] }]);
    const needsIops = { shareProto: null, ...type({ iops: '>= 500' }) };
    for (let report = 1; report <= 200; report++) {
      changing.report('h@be', [pool('p', { iops: report * 5 })], report, 'az-1');
      expect(keptBy(capabilitiesFilter, changing, needsIops)).toEqual(
        report * 5 >= 500 ? ['h@be#p'] : [],
      );
    }
    expect(changing.capabilityValueColumn('iops').distinctValues).toBeLessThanOrEqual(
      2 * changing.size + 65,
    );
  });

  it('is checked on every request, not kept, when a type requires a volatile capacity figure', () => {
    registry.refresh(1);
    const needsRoom = request({ shareProto: null, ...type({ free_capacity_gb: '>= 400' }) });
    const prepared = capabilitiesFilter.prepare(schedulingContext(registry, needsRoom, 1));
    expect(prepared?.staticKey).toBeUndefined();
    expect(prepared?.seed?.()).toBeUndefined();
  });

  it('offers the passing live pools as a seed, the same pools a full pass keeps', () => {
    registry.refresh(1);
    const prepared = capabilitiesFilter.prepare(
      schedulingContext(registry, request({ shareProto: 'CEPHFS' }), 1),
    );
    const seeded = [...(prepared?.seed?.() ?? [])].map((index) => registry.columns.host[index]);
    expect(seeded).toEqual(keptBy(capabilitiesFilter, registry, { shareProto: 'CEPHFS' }));
    expect(seeded).toEqual(['h2@be#cephfs']);
  });
});
