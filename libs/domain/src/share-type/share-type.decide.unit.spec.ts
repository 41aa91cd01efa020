import { deciderSpec } from '../test-support/decider-spec.js';
import type { ShareTypeEvent } from './share-type.events.js';
import { shareTypeDecider } from './share-type.decide.js';
import { capabilitiesOf } from './extra-specs.js';

const spec = deciderSpec(shareTypeDecider);
const now = '2026-11-22T10:00:00.000Z';
const create = {
  type: 'CreateShareType' as const,
  shareTypeId: 't1',
  name: 'gold',
  description: null,
  extraSpecs: { driver_handles_share_servers: 'False', availability_zones: 'az-1, az-2' },
  isPublic: true,
  now,
};
const created: ShareTypeEvent = {
  type: 'ShareTypeCreated',
  data: {
    shareTypeId: 't1',
    name: 'gold',
    description: null,
    extraSpecs: { driver_handles_share_servers: 'False', availability_zones: 'az-1,az-2' },
    isPublic: true,
    createdAt: now,
  },
};

describe('share type decider', () => {
  it('creates a type, normalising the zone list', () =>
    spec.given([]).when(create).then([created]));
  it('requires driver_handles_share_servers', () =>
    spec
      .given([])
      .when({ ...create, extraSpecs: {} })
      .thenThrows('invalid', /driver_handles_share_servers/));
  it('rejects a non-boolean driver_handles_share_servers', () =>
    spec
      .given([])
      .when({ ...create, extraSpecs: { driver_handles_share_servers: 'maybe' } })
      .thenThrows('invalid'));
  it('rejects an unknown replication_type', () =>
    spec
      .given([])
      .when({
        ...create,
        extraSpecs: { driver_handles_share_servers: 'false', replication_type: 'sync' },
      })
      .thenThrows('invalid', /replication_type/));
  it('rejects a bad key', () =>
    spec
      .given([])
      .when({ ...create, extraSpecs: { driver_handles_share_servers: 'false', 'bad key': 'x' } })
      .thenThrows('invalid'));
  it('rejects an empty name', () =>
    spec
      .given([])
      .when({ ...create, name: ' ' })
      .thenThrows('invalid'));
  it('sets extra specs', () =>
    spec
      .given([created])
      .when({ type: 'SetShareTypeExtraSpecs', extraSpecs: { snapshot_support: 'True' }, now })
      .then([
        {
          type: 'ShareTypeExtraSpecsSet',
          data: { shareTypeId: 't1', extraSpecs: { snapshot_support: 'True' }, updatedAt: now },
        },
      ]));
  it('given an empty set of extra specs, then nothing happens (Manila answers 200)', () =>
    spec.given([created]).when({ type: 'SetShareTypeExtraSpecs', extraSpecs: {}, now }).then([]));
  it('never unsets driver_handles_share_servers (403)', () =>
    spec
      .given([created])
      .when({ type: 'UnsetShareTypeExtraSpec', key: 'driver_handles_share_servers', now })
      .thenThrows('forbidden'));
  it('unsetting a missing key is a 404', () =>
    spec
      .given([created])
      .when({ type: 'UnsetShareTypeExtraSpec', key: 'nope', now })
      .thenThrows('not_found'));
  it('refuses access changes on a public type (409)', () =>
    spec
      .given([created])
      .when({ type: 'AddShareTypeAccess', projectId: 'p2' })
      .thenThrows('conflict'));
  it('a deleted type is not found', () =>
    spec
      .given([created, { type: 'ShareTypeDeleted', data: { shareTypeId: 't1', deletedAt: now } }])
      .when({ type: 'DeleteShareType', now })
      .thenThrows('not_found'));
  it('derives share capabilities from specs (false when absent)', () => {
    expect(capabilitiesOf({ snapshot_support: '<is> True', replication_type: 'readable' })).toEqual(
      {
        snapshotSupport: true,
        createShareFromSnapshotSupport: false,
        revertToSnapshotSupport: false,
        mountSnapshotSupport: false,
        replicationType: 'readable',
      },
    );
  });
});
