import type { ShareInstanceState, ActiveShare } from '#hawser/domain';
import { replicaSchedulingRequest } from './replica-scheduling-request.js';

const instance = (id: string, host: string, replicaState: 'active' | 'out_of_sync') =>
  ({
    id,
    status: replicaState === 'active' ? 'available' : 'creating',
    host,
    availabilityZone: replicaState === 'active' ? 'az-1' : 'az-2',
    replicaState,
    progress: null,
    exportLocations: [],
    pendingOperation: null,
    createdAt: '',
    updatedAt: '',
  }) satisfies ShareInstanceState;

/** A readable share created from snapshot sn1, active on n1, with replica r1 unplaced. */
const share: ActiveShare = {
  kind: 'active',
  id: 's1',
  projectId: 'p1',
  userId: 'u1',
  name: null,
  description: null,
  size: 30,
  shareProto: 'NFS',
  shareType: { id: 't1', name: 'readable', extraSpecs: { replication_type: 'readable' } },
  capabilities: null,
  requestedAvailabilityZone: null,
  metadata: {},
  isPublic: false,
  snapshotId: 'sn1',
  schedulerHints: null,
  createdAt: '',
  instances: [instance('i1', 'n1@b#p', 'active'), instance('r1', '', 'out_of_sync')],
  snapshots: [],
  accessRules: [],
  pendingResize: null,
};
const replica = share.instances[1] as ShareInstanceState;

describe("a replica's scheduling request", () => {
  it("carries the pools that refused the replica, and the share's snapshot_id as Manila's request_spec does", () => {
    const request = replicaSchedulingRequest({
      share,
      replica,
      attemptedHosts: ['n2@b#p1', 'n2@b#p2'],
    });
    expect(request).toMatchObject({
      shareId: 'r1',
      size: 30,
      availabilityZone: 'az-2',
      activeReplicaHost: 'n1@b#p',
      attemptedHosts: ['n2@b#p1', 'n2@b#p2'],
      // reserved_snapshot_percentage applies, as in Manila's CapacityFilter and the node's check,
      snapshotId: 'sn1',
      // while CreateFromSnapshotFilter and HostAffinityWeigher stay out: no snapshot_host.
      snapshot: null,
    });
  });
});
