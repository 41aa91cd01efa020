import {
  capabilitiesOf,
  newShareInstance,
  type AccessRuleState,
  type ActiveShare,
  type SnapshotState,
} from '#hawser/domain';
import { shareStateOf, toShareRecord, type ShareRecord } from './share.documents.js';

const at = '2026-11-26T07:00:00.000Z';
const later = '2026-11-26T07:05:00.000Z';

/** A share just requested: no type capabilities resolved, one unplaced instance. */
const requested: ActiveShare = {
  kind: 'active',
  id: 's1',
  projectId: 'p1',
  userId: 'u1',
  name: null,
  description: null,
  size: 1,
  shareProto: 'NFS',
  shareType: null,
  capabilities: null,
  requestedAvailabilityZone: null,
  metadata: {},
  isPublic: false,
  snapshotId: null,
  snapshotSource: null,
  schedulerHints: null,
  createdAt: at,
  instances: [newShareInstance('i1', 'creating', '', null, at)],
  snapshots: [],
  accessRules: [],
  pendingResize: null,
};

const snapshot: SnapshotState = {
  id: 'snap1',
  projectId: 'p1',
  userId: 'u1',
  name: 'nightly',
  description: null,
  size: 2,
  deletionForced: false,
  createdAt: later,
  updatedAt: later,
} as SnapshotState;

const rule: AccessRuleState = {
  id: 'r1',
  accessType: 'ip',
  accessTo: '10.0.0.0/24',
  accessLevel: 'rw',
  accessKey: null,
  metadata: {},
  createdAt: later,
  updatedAt: later,
  instances: { i1: 'active', i2: 'queued_to_apply' },
};

/** A public, replicated share in the recycle bin, with most optional parts of the state set. */
const replicated: ActiveShare = {
  ...requested,
  name: 'web',
  description: 'the web tier',
  size: 2,
  shareType: { id: 't1', name: 'gold', extraSpecs: { replication_type: 'readable' } },
  capabilities: capabilitiesOf({ replication_type: 'readable', snapshot_support: 'True' }),
  requestedAvailabilityZone: 'az-1',
  metadata: { tier: 'web' },
  isPublic: true,
  snapshotId: 'snap0',
  schedulerHints: { sameHost: ['s0'] },
  instances: [
    newShareInstance('i1', 'available', 'n@b#p', 'az-1', at, {
      replicaState: 'active',
      progress: '100%',
      exportLocations: [
        { id: 'e1', path: 'n:/p/i1', preferred: true, isAdminOnly: false },
        { id: 'e2', path: 'admin:/p/i1', preferred: false, isAdminOnly: true },
      ],
      updatedAt: later,
    }),
    newShareInstance('i2', 'creating', 'm@b#p', 'az-2', later, {
      replicaState: 'out_of_sync',
      pendingOperation: { operation: 'create_replica', commandId: 'c2' },
      attemptedHosts: ['o@b#p'],
      replicaRequest: { availabilityZone: 'az-2' },
    }),
    // No zone and no host, where the listing shows the first instance's.
    newShareInstance('i3', 'error', '', null, later, { replicaState: 'error' }),
  ],
  snapshots: [snapshot],
  accessRules: [rule],
  pendingResize: { direction: 'extend', newSize: 3, awaitsCapacityCheck: true },
  replication: { quotaHolders: ['q1'], forcedDeletions: [] },
  recycleBin: { scheduledToBeDeletedAt: '2026-11-27T07:00:00.000Z' },
  taskState: null,
};

/** The record as it travels through the store: JSON text, where undefined fields vanish. */
const stored = (record: ShareRecord): ShareRecord => JSON.parse(JSON.stringify(record));

describe('packed share records', () => {
  it.each([
    ['a share just requested', requested],
    ['a replicated share in the recycle bin', replicated],
    [
      'a share whose type resolved every capability to its default',
      { ...requested, capabilities: capabilitiesOf({}) },
    ],
  ])('given %s, when its record is stored and read, then the same share comes back', (_, state) => {
    const record = stored(toShareRecord(state, 7));

    expect(shareStateOf(record)).toStrictEqual(state);
    expect(record.revision).toBe(7);
  });

  it('given a share just requested, when its record is stored, then it holds no null, false or empty default and no field twice', () => {
    const record = stored(toShareRecord(requested, 0));

    expect(record).toStrictEqual({
      id: 's1',
      revision: 0,
      project_id: 'p1',
      user_id: 'u1',
      size: 1,
      share_proto: 'NFS',
      status: 'creating',
      host: '',
      created_at: at,
      updated_at: at,
      p: { i: [{ id: 'i1' }] },
    });
  });

  it('given a replicated share, when its record is stored, then the listing fields say what the state would repeat', () => {
    const record = stored(toShareRecord(replicated, 3));

    expect(record).toMatchObject({
      name: 'web',
      share_type_id: 't1',
      availability_zone: 'az-1',
      is_public: true,
      snapshot_id: 'snap0',
      scheduled_to_be_deleted_at: '2026-11-27T07:00:00.000Z',
      updated_at: later,
    });
    expect(record.p.t).toStrictEqual({ n: 'gold', x: { replication_type: 'readable' } });
    expect(record.p.c).toStrictEqual({ snapshotSupport: true, replicationType: 'readable' });
    expect(Object.keys(record.p)).not.toContain('projectId');
    // The admin path ends as the first one does: only what differs is kept.
    expect((record.p.i as { e?: unknown[] }[])[0]?.e).toStrictEqual([
      { id: 'e1', p: 'n:/p/i1', f: true },
      { id: 'e2', p: 'admi', s: 7, a: true },
    ]);
  });

  it('given a record stored before shares were packed (the state whole), when it is read, then its state is the share', () => {
    const { p: _packed, ...listing } = toShareRecord(replicated, 3);
    const legacy = stored({ ...listing, state: replicated } as unknown as ShareRecord);

    expect(shareStateOf(legacy)).toStrictEqual(replicated);
  });

  it('given a record packed before under the long names of the state, when it is read, then its state is the share', () => {
    const before = {
      id: 's9',
      revision: 3,
      project_id: 'p1',
      user_id: 'u1',
      size: 7,
      share_proto: 'NFS',
      share_type_id: 't1',
      status: 'available',
      host: 'n@b#p',
      availability_zone: 'az-1',
      is_public: false,
      metadata: {},
      created_at: at,
      updated_at: later,
      share: {
        shareType: { name: 'scale', extraSpecs: { driver_handles_share_servers: 'false' } },
        capabilities: {},
        instances: [
          {
            progress: '100%',
            exportLocations: [
              { id: 'e1', path: 'n:/shares/share_s9_i9', preferred: true },
              { id: 'e2', path: 'admin.n:/shares/share_s9_i9', isAdminOnly: true },
            ],
            id: 'i9',
          },
        ],
      },
    } as unknown as ShareRecord;

    expect(shareStateOf(stored(before))).toStrictEqual({
      ...requested,
      id: 's9',
      size: 7,
      shareType: {
        id: 't1',
        name: 'scale',
        extraSpecs: { driver_handles_share_servers: 'false' },
      },
      capabilities: capabilitiesOf({}),
      instances: [
        newShareInstance('i9', 'available', 'n@b#p', 'az-1', at, {
          progress: '100%',
          exportLocations: [
            { id: 'e1', path: 'n:/shares/share_s9_i9', preferred: true, isAdminOnly: false },
            {
              id: 'e2',
              path: 'admin.n:/shares/share_s9_i9',
              preferred: false,
              isAdminOnly: true,
            },
          ],
          updatedAt: later,
        }),
      ],
    });
  });
});
