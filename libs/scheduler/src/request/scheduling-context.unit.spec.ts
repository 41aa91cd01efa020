import { pool, registryWith, request } from '../test-support/scheduler-fixtures.js';
import { rewriteExtraSpecs, schedulingContext } from './scheduling-context.js';

const specs = (extraSpecs: Record<string, string>) => ({
  shareType: { id: 't', name: 't', extraSpecs },
});

describe("the request's view of the share type (Manila's _format_filter_properties)", () => {
  it('rewrites boolean standard specs to <is> and adds <in> share_proto', () => {
    expect(
      rewriteExtraSpecs(
        request({
          ...specs({
            driver_handles_share_servers: 'False',
            snapshot_support: '<is> True',
            thin_provisioning: 'True',
            replication_type: 'dr',
          }),
          shareProto: 'CIFS',
        }),
      ),
    ).toEqual({
      driver_handles_share_servers: '<is> False',
      snapshot_support: '<is> True',
      thin_provisioning: 'True',
      replication_type: 'dr',
      storage_protocol: '<in> CIFS',
    });
  });

  it('keeps an explicit storage_protocol', () => {
    expect(
      rewriteExtraSpecs(request({ ...specs({ storage_protocol: 'NFS' }), shareProto: 'CIFS' })),
    ).toEqual({
      storage_protocol: 'NFS',
    });
  });

  it('drops share_backend_name for replicas and clones only', () => {
    const typed = specs({ share_backend_name: 'GOLD' });
    expect(rewriteExtraSpecs(request(typed))).toHaveProperty('share_backend_name');
    expect(rewriteExtraSpecs(request({ ...typed, activeReplicaHost: 'h@b#p' }))).not.toHaveProperty(
      'share_backend_name',
    );
  });

  it("takes the replication domain of the first live pool that is the active replica's", () => {
    const registry = registryWith([
      { backend: 'h1@be', pools: [pool('a', { replication_domain: 'rd-1' })] },
      { backend: 'h2@be', pools: [pool('a', { replication_domain: 'rd-2' })] },
    ]);
    registry.refresh(1);
    expect(
      schedulingContext(registry, request({ activeReplicaHost: 'h2@be#a' }), 1).replicationDomain,
    ).toBe('rd-2');
    expect(
      schedulingContext(registry, request({ activeReplicaHost: 'h9@be#a' }), 1).replicationDomain,
    ).toBeNull();
  });

  it('picks the reserved percentage by request kind', () => {
    const registry = registryWith([{ backend: 'h@be', pools: [pool('a')] }]);
    const columns = registry.columns;
    expect(schedulingContext(registry, request(), 1).reservedFraction).toBe(
      columns.reservedFraction,
    );
    expect(schedulingContext(registry, request({ snapshotId: 's' }), 1).reservedFraction).toBe(
      columns.reservedSnapshotFraction,
    );
    expect(schedulingContext(registry, request({ isShareExtend: true }), 1).reservedFraction).toBe(
      columns.reservedExtendFraction,
    );
  });

  it('rejects a negative size', () => {
    expect(() => request({ size: -1 })).toThrow(RangeError);
  });
});
