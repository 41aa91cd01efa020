import { capabilitiesOf } from '../share-type/extra-specs.js';
import { deciderSpec } from '../test-support/decider-spec.js';
import type { ShareEvent, ShareRequested } from './share.events.js';
import { shareDecider } from './share.decide.js';

const spec = deciderSpec(shareDecider);
const now = '2026-11-22T10:00:00.000Z';
const requested: ShareRequested['data'] = {
  shareId: 's1',
  instanceId: 'i1',
  projectId: 'p1',
  userId: 'u1',
  name: 'share-a',
  description: null,
  size: 1,
  shareProto: 'NFS',
  shareType: { id: 't1', name: 'default', extraSpecs: { driver_handles_share_servers: 'False' } },
  capabilities: capabilitiesOf({ driver_handles_share_servers: 'False' }),
  availabilityZone: null,
  metadata: {},
  isPublic: false,
  snapshotId: null,
  schedulerHints: null,
  createdAt: now,
};
const shareRequested: ShareEvent = { type: 'ShareRequested', data: requested };
const scheduled: ShareEvent = {
  type: 'ShareScheduled',
  data: {
    instanceId: 'i1',
    host: 'node1@b1#p1',
    availabilityZone: 'az-1',
    size: 1,
    scheduledAt: now,
  },
};
const started = (operation: 'create_share' | 'delete_share', commandId: string): ShareEvent => ({
  type: 'ShareDriverOperationStarted',
  data: { instanceId: 'i1', operation, commandId, host: 'node1@b1#p1', startedAt: now },
});
const created: ShareEvent = {
  type: 'ShareCreated',
  data: {
    instanceId: 'i1',
    commandId: 'c-create',
    exportLocations: [{ id: 'e1', path: 'node1:/p1/s1', preferred: true, isAdminOnly: false }],
    createdAt: now,
  },
};

describe('share decider', () => {
  describe('RequestShare', () => {
    it('records the request', () =>
      spec
        .given([])
        .when({ type: 'RequestShare', ...requested })
        .then([shareRequested]));
    it('refuses a second request for the same id', () =>
      spec
        .given([shareRequested])
        .when({ type: 'RequestShare', ...requested })
        .thenThrows('conflict'));
    it('refuses a size below 1', () =>
      spec
        .given([])
        .when({ type: 'RequestShare', ...requested, size: 0 })
        .thenThrows('invalid'));
    it('refuses an empty metadata value', () =>
      spec
        .given([])
        .when({ type: 'RequestShare', ...requested, metadata: { k: '' } })
        .thenThrows('invalid', /^Metadata property value is blank\.$/));
  });

  describe('scheduling', () => {
    it('records the chosen pool', () =>
      spec
        .given([shareRequested])
        .when({
          type: 'ScheduleShareInstance',
          instanceId: 'i1',
          host: 'node1@b1#p1',
          availabilityZone: 'az-1',
          now,
        })
        .then([scheduled]));
    it('is a no-op when replayed after the share was scheduled', () =>
      spec
        .given([shareRequested, scheduled])
        .when({
          type: 'ScheduleShareInstance',
          instanceId: 'i1',
          host: 'other@b#p',
          availabilityZone: 'az-2',
          now,
        })
        .thenNothing());
    it('puts the share in error when no pool fits', () =>
      spec
        .given([shareRequested])
        .when({
          type: 'FailShareInstanceScheduling',
          instanceId: 'i1',
          message: 'No valid host',
          detail: {},
          now,
        })
        .then([
          {
            type: 'ShareSchedulingFailed',
            data: { instanceId: 'i1', message: 'No valid host', detail: {}, failedAt: now },
          },
        ]));
    it('refuses to touch an unknown share', () =>
      spec
        .given([])
        .when({
          type: 'ScheduleShareInstance',
          instanceId: 'i1',
          host: 'h@b#p',
          availabilityZone: 'az',
          now,
        })
        .thenThrows('not_found'));
  });

  describe('driver operations', () => {
    const start = {
      type: 'StartDriverOperation' as const,
      instanceId: 'i1',
      operation: 'create_share' as const,
      commandId: 'c-create',
      host: 'node1@b1#p1',
      now,
    };
    it('claims the creation before the driver runs', () =>
      spec
        .given([shareRequested, scheduled])
        .when(start)
        .then([started('create_share', 'c-create')]));
    it('does not claim the same command twice', () =>
      spec
        .given([shareRequested, scheduled, started('create_share', 'c-create')])
        .when(start)
        .thenNothing());
    it('refuses a second operation while one is pending', () =>
      spec
        .given([shareRequested, scheduled, started('create_share', 'c-create')])
        .when({ ...start, commandId: 'c-other' })
        .thenThrows('conflict'));
    it('completes the claimed creation with export locations', () =>
      spec
        .given([shareRequested, scheduled, started('create_share', 'c-create')])
        .when({
          type: 'CompleteShareInstanceCreation',
          instanceId: 'i1',
          commandId: 'c-create',
          exportLocations: created.type === 'ShareCreated' ? created.data.exportLocations : [],
          now,
        })
        .then([created]));
    it('ignores an outcome for a command that is not pending', () =>
      spec
        .given([shareRequested, scheduled, started('create_share', 'c-create'), created])
        .when({
          type: 'FailShareInstanceCreation',
          instanceId: 'i1',
          commandId: 'c-create',
          message: 'x',
          now,
        })
        .thenNothing());
    it('records a failed creation', () =>
      spec
        .given([shareRequested, scheduled, started('create_share', 'c-create')])
        .when({
          type: 'FailShareInstanceCreation',
          instanceId: 'i1',
          commandId: 'c-create',
          message: 'disk full',
          now,
        })
        .then([
          {
            type: 'ShareCreationFailed',
            data: { instanceId: 'i1', commandId: 'c-create', message: 'disk full', failedAt: now },
          },
        ]));
  });

  describe('DeleteShare', () => {
    it('asks the node to delete an available share', () =>
      spec
        .given([shareRequested, scheduled, started('create_share', 'c-create'), created])
        .when({ type: 'DeleteShare', force: false, now })
        .then([
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: false, requestedAt: now },
          },
        ]));
    it('deletes at once a share that never reached a pool', () =>
      spec
        .given([
          shareRequested,
          {
            type: 'ShareSchedulingFailed',
            data: { instanceId: 'i1', message: 'No valid host', detail: {}, failedAt: now },
          },
        ])
        .when({ type: 'DeleteShare', force: false, now })
        .then([
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: false, requestedAt: now },
          },
          {
            type: 'ShareInstanceDeleted',
            data: { instanceId: 'i1', commandId: null, deletedAt: now },
          },
          { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: now } },
        ]));
    it('refuses a share that is still creating (403), unless forced', () => {
      spec
        .given([shareRequested, scheduled])
        .when({ type: 'DeleteShare', force: false, now })
        .thenThrows('forbidden');
      spec
        .given([shareRequested, scheduled])
        .when({ type: 'DeleteShare', force: true, now })
        .then([
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: true, requestedAt: now },
          },
        ]);
    });
    it('carries on with a force-delete once the creation it interrupted completes', () =>
      spec
        .given([
          shareRequested,
          scheduled,
          started('create_share', 'c-create'),
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: true, requestedAt: now },
          },
          created,
        ])
        .when({
          type: 'StartDriverOperation',
          instanceId: 'i1',
          operation: 'delete_share',
          commandId: 'c-delete',
          host: 'node1@b1#p1',
          now,
        })
        .then([started('delete_share', 'c-delete')]));
    it('finishes when the node reports the instance deleted', () =>
      spec
        .given([
          shareRequested,
          scheduled,
          started('create_share', 'c-create'),
          created,
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: false, requestedAt: now },
          },
          started('delete_share', 'c-delete'),
        ])
        .when({
          type: 'CompleteShareInstanceDeletion',
          instanceId: 'i1',
          commandId: 'c-delete',
          now,
        })
        .then([
          {
            type: 'ShareInstanceDeleted',
            data: { instanceId: 'i1', commandId: 'c-delete', deletedAt: now },
          },
          { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: now } },
        ]));
    it('a deleted share is not found', () =>
      spec
        .given([
          shareRequested,
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: false, requestedAt: now },
          },
          {
            type: 'ShareInstanceDeleted',
            data: { instanceId: 'i1', commandId: null, deletedAt: now },
          },
          { type: 'ShareDeleted', data: { shareId: 's1', deletedAt: now } },
        ])
        .when({ type: 'DeleteShare', force: false, now })
        .thenThrows('not_found'));
  });

  describe('updates', () => {
    it('renames', () =>
      spec
        .given([shareRequested])
        .when({ type: 'UpdateShare', name: 'b', now })
        .then([{ type: 'ShareUpdated', data: { name: 'b', updatedAt: now } }]));
    it('sets and unsets metadata, ignoring keys that are absent', () =>
      spec
        .given([shareRequested])
        .when({ type: 'ChangeShareMetadata', set: { a: '1' }, unset: ['missing'], now })
        .then([
          { type: 'ShareMetadataChanged', data: { set: { a: '1' }, unset: [], updatedAt: now } },
        ]));
    it('resets the status of the preferred instance to an allowed status only', () => {
      spec
        .given([shareRequested])
        .when({ type: 'ResetShareStatus', status: 'error', now })
        .then([
          { type: 'ShareStatusReset', data: { instanceId: 'i1', status: 'error', resetAt: now } },
        ]);
      spec
        .given([shareRequested])
        .when({ type: 'ResetShareStatus', status: 'inactive', now })
        .thenThrows('invalid');
    });

    it('resets one named instance (the share-instances API), and refuses an unknown one', () => {
      spec
        .given([shareRequested])
        .when({ type: 'ResetShareStatus', status: 'available', instanceId: 'i1', now })
        .then([
          {
            type: 'ShareStatusReset',
            data: { instanceId: 'i1', status: 'available', resetAt: now },
          },
        ]);
      spec
        .given([shareRequested])
        .when({ type: 'ResetShareStatus', status: 'available', instanceId: 'nope', now })
        .thenThrows('not_found');
    });
  });
});
