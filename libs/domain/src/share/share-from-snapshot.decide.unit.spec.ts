import { deciderSpec } from '../test-support/decider-spec.js';
import type { SnapshotSource } from './share-from-snapshot.types.js';
import type { ShareEvent } from './share.events.js';
import { shareDecider } from './share.decide.js';
import {
  activeShareAfter,
  claimed,
  later,
  now,
  shareRequested,
} from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const SOURCE_HOST = 'node1@b1#p1';

const source = (placement: SnapshotSource['placement']): SnapshotSource => ({
  snapshotId: 'snap1',
  snapshotInstanceId: 'snap1-i',
  shareId: 'src',
  shareInstanceId: 'src-i',
  host: SOURCE_HOST,
  availabilityZone: 'az-1',
  size: 2,
  placement,
});

const requestedFrom = (placement: SnapshotSource['placement'], size = 2): ShareEvent => {
  const base = shareRequested();
  if (base.type !== 'ShareRequested') throw new Error('unexpected history');
  return {
    type: 'ShareRequested',
    data: { ...base.data, size, snapshotId: 'snap1', snapshotSource: source(placement) },
  };
};
const requestCommand = (event: ShareEvent) => {
  if (event.type !== 'ShareRequested') throw new Error('unexpected history');
  return { type: 'RequestShare' as const, ...event.data };
};

const placedOnSource: ShareEvent = {
  type: 'ShareScheduled',
  data: {
    instanceId: 'i1',
    host: SOURCE_HOST,
    availabilityZone: 'az-1',
    size: 2,
    scheduledAt: now,
  },
};
const asynchronous: ShareEvent = {
  type: 'ShareCreationDeferred',
  data: { instanceId: 'i1', commandId: 'c-create', progress: '0%', answeredAt: later },
};
const creatingFromSnapshot: ShareEvent[] = [
  requestedFrom('source-pool'),
  placedOnSource,
  claimed('create_share_from_snapshot', 'c-create'),
  asynchronous,
];
const poll = (
  status: 'available' | 'creating_from_snapshot' | 'error',
  progress: number | null,
  extra: { message?: string } = {},
) => ({
  type: 'RecordShareStatusPoll' as const,
  instanceId: 'i1',
  pollId: 'poll-1',
  status,
  progress,
  exportLocations:
    status === 'available'
      ? [{ id: 'e1', path: 'node1:/p1/i1', preferred: true, isAdminOnly: false }]
      : [],
  message: extra.message ?? null,
  now: later,
});

describe('share decider: creating from a snapshot', () => {
  describe('RequestShare with a snapshot source', () => {
    it('without the scheduler, places the share on the source pool at once', () =>
      spec
        .given([])
        .when(requestCommand(requestedFrom('source-pool')))
        .then([requestedFrom('source-pool'), placedOnSource]));
    it('with the scheduler, only records the request', () =>
      spec
        .given([])
        .when(requestCommand(requestedFrom('scheduler')))
        .then([requestedFrom('scheduler')]));
    it('refuses a share smaller than the snapshot', () =>
      spec
        .given([])
        .when(requestCommand(requestedFrom('scheduler', 1)))
        .thenThrows('invalid', /smaller than the snapshot/));
  });

  describe('RecordShareCreationDeferred', () => {
    it('moves the claimed instance to creating_from_snapshot at 0%', () =>
      spec
        .given(creatingFromSnapshot.slice(0, 3))
        .when({
          type: 'RecordShareCreationDeferred',
          instanceId: 'i1',
          commandId: 'c-create',
          now: later,
        })
        .then([asynchronous]));
    it('decides nothing for another claim', () =>
      spec
        .given(creatingFromSnapshot.slice(0, 3))
        .when({
          type: 'RecordShareCreationDeferred',
          instanceId: 'i1',
          commandId: 'c-other',
          now: later,
        })
        .thenNothing());
    it('makes the instance of a replicated share its active replica, as creation does', () => {
      const replicated = shareRequested({ replication_type: 'readable' });
      if (
        replicated.type !== 'ShareRequested' ||
        creatingFromSnapshot[0]?.type !== 'ShareRequested'
      )
        throw new Error('unexpected history');
      const history: ShareEvent[] = [
        {
          type: 'ShareRequested',
          data: { ...creatingFromSnapshot[0].data, capabilities: replicated.data.capabilities },
        },
        ...creatingFromSnapshot.slice(1),
      ];
      const state = activeShareAfter(history);
      expect(state.instances[0]?.replicaState).toBe('active');
    });
    it('leaves the claim settled, the status shown and progress 0%', () => {
      const state = activeShareAfter(creatingFromSnapshot);
      expect(state.instances[0]).toMatchObject({
        status: 'creating_from_snapshot',
        progress: '0%',
        pendingOperation: null,
      });
      expect(state.snapshotSource).toEqual(source('source-pool'));
    });
  });

  describe('RecordShareStatusPoll', () => {
    it('records rising progress as an event', () =>
      spec
        .given(creatingFromSnapshot)
        .when(poll('creating_from_snapshot', 42.7))
        .then([
          {
            type: 'ShareCreationProgressed',
            data: { instanceId: 'i1', progress: '42%', progressedAt: later },
          },
        ]));
    it('records nothing when the progress did not change or is unknown', () => {
      spec.given(creatingFromSnapshot).when(poll('creating_from_snapshot', 0)).thenNothing();
      spec.given(creatingFromSnapshot).when(poll('creating_from_snapshot', null)).thenNothing();
    });
    it('ends available with the export locations', () =>
      spec
        .given(creatingFromSnapshot)
        .when(poll('available', 100))
        .then([
          {
            type: 'ShareCreated',
            data: {
              instanceId: 'i1',
              commandId: 'poll-1',
              exportLocations: poll('available', 100).exportLocations,
              createdAt: later,
            },
          },
        ]));
    it('ends in error with the driver message', () =>
      spec
        .given(creatingFromSnapshot)
        .when(poll('error', 0, { message: 'Copying the snapshot data failed.' }))
        .then([
          {
            type: 'ShareCreationFailed',
            data: {
              instanceId: 'i1',
              commandId: 'poll-1',
              message: 'Copying the snapshot data failed.',
              failedAt: later,
            },
          },
        ]));
    it('decides nothing once the instance is no longer creating from the snapshot', () =>
      spec
        .given([
          ...creatingFromSnapshot,
          {
            type: 'ShareCreated',
            data: { instanceId: 'i1', commandId: 'poll-0', exportLocations: [], createdAt: later },
          },
        ])
        .when(poll('creating_from_snapshot', 50))
        .thenNothing());
    it('shows 100% and available after completion, progress null after failure', () => {
      const done = [
        ...creatingFromSnapshot,
        ...shareDecider.decide(poll('available', 100), fold()),
      ];
      const state = activeShareAfter(done);
      expect(state.instances[0]).toMatchObject({ status: 'available', progress: '100%' });
      const failed = [
        ...creatingFromSnapshot,
        ...shareDecider.decide(poll('error', 3, { message: 'x' }), fold()),
      ];
      const errored = activeShareAfter(failed);
      expect(errored.instances[0]).toMatchObject({ status: 'error', progress: null });
    });
  });
});

function fold() {
  return creatingFromSnapshot.reduce(shareDecider.evolve, shareDecider.initialState());
}
