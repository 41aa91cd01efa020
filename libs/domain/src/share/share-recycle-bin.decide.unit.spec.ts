import { deciderSpec } from '../test-support/decider-spec.js';
import type { ShareEvent } from './share.events.js';
import { shareDecider } from './share.decide.js';
import { snapshotRequested, withReplica } from './test-support/replica-history.js';
import {
  availableShare,
  claimed,
  later,
  now,
  shareRequested,
} from './test-support/share-history.js';

const spec = deciderSpec(shareDecider);
const due = '2026-11-29T10:00:00.000Z';
const afterDue = '2026-11-29T10:00:01.000Z';

const softDeleted: ShareEvent = {
  type: 'ShareSoftDeleted',
  data: { scheduledToBeDeletedAt: due, softDeletedAt: later },
};
const inRecycleBin = [...availableShare(), softDeleted];
const softDelete = { type: 'SoftDeleteShare', scheduledToBeDeletedAt: due, now: later } as const;

describe('share decider: recycle bin (2.69)', () => {
  describe('SoftDeleteShare', () => {
    it('puts an available share in the recycle bin until its retention passes', () =>
      spec.given(availableShare()).when(softDelete).then([softDeleted]));

    it('refuses a share already in the bin (403)', () =>
      spec
        .given(inRecycleBin)
        .when(softDelete)
        .thenThrows('forbidden', 'Invalid share: The share has been soft deleted already'));

    it('refuses a share in a busy status (403)', () =>
      spec
        .given([shareRequested()])
        .when(softDelete)
        .thenThrows(
          'forbidden',
          "Invalid share: Share status must be one of ('available', 'error', 'inactive')",
        ));

    it('refuses a share with snapshots (403)', () =>
      spec
        .given([
          ...availableShare(),
          snapshotRequested('snap1', [{ id: 'si1', shareInstanceId: 'i1' }]),
        ])
        .when(softDelete)
        .thenThrows('forbidden', 'Invalid share: Share still has 1 dependent snapshots.'));

    it('refuses a share with replicas (409)', () =>
      spec
        .given(withReplica())
        .when(softDelete)
        .thenThrows('conflict', /has replicas/));
  });

  describe('RestoreShare', () => {
    it('takes the share out of the bin', () =>
      spec
        .given(inRecycleBin)
        .when({ type: 'RestoreShare', now: later })
        .then([{ type: 'ShareRestored', data: { restoredAt: later } }]));

    it('leaves a share not in the bin as it is', () =>
      spec.given(availableShare()).when({ type: 'RestoreShare', now: later }).thenNothing());

    it('refuses a share its expiry is deleting (403)', () =>
      spec
        .given([
          ...inRecycleBin,
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: false, requestedAt: afterDue },
          },
        ])
        .when({ type: 'RestoreShare', now: afterDue })
        .thenThrows('forbidden', /being deleted/));
  });

  describe('DeleteExpiredShare', () => {
    it('deletes a share whose retention has passed', () =>
      spec
        .given(inRecycleBin)
        .when({ type: 'DeleteExpiredShare', now: afterDue })
        .then([
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: false, requestedAt: afterDue },
          },
        ]));

    it('decides nothing before the retention passed', () =>
      spec.given(inRecycleBin).when({ type: 'DeleteExpiredShare', now: later }).thenNothing());

    it('decides nothing for a restored share', () =>
      spec
        .given([...inRecycleBin, { type: 'ShareRestored', data: { restoredAt: later } }])
        .when({ type: 'DeleteExpiredShare', now: afterDue })
        .thenNothing());

    it('decides nothing while the deletion runs (a repeated timer pass)', () =>
      spec
        .given([
          ...inRecycleBin,
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: false, requestedAt: afterDue },
          },
        ])
        .when({ type: 'DeleteExpiredShare', now: afterDue })
        .thenNothing());

    it('tries a failed deletion again, as Manila resets error_deleting', () =>
      spec
        .given([
          ...inRecycleBin,
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: false, requestedAt: afterDue },
          },
          claimed('delete_share', 'c-delete'),
          {
            type: 'ShareDeletionFailed',
            data: { instanceId: 'i1', commandId: 'c-delete', message: 'busy', failedAt: afterDue },
          },
        ])
        .when({ type: 'DeleteExpiredShare', now: afterDue })
        .then([
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: false, requestedAt: afterDue },
          },
        ]));
  });

  describe('a share in the recycle bin', () => {
    it.each([
      [{ type: 'UpdateShare', name: 'x', now: later }, /cannot be updated/],
      [{ type: 'ResizeShare', direction: 'extend', newSize: 3, now: later }, /Cannot extend share/],
      [{ type: 'ResizeShare', direction: 'shrink', newSize: 1, now: later }, /Cannot shrink share/],
      [{ type: 'ResetShareStatus', status: 'error', now: later }, /status cannot be reset/],
    ] as const)('refuses %o (403)', (command, message) =>
      spec.given(inRecycleBin).when(command).thenThrows('forbidden', message),
    );

    it('may still be deleted by its owner', () =>
      spec
        .given(inRecycleBin)
        .when({ type: 'DeleteShare', force: false, now })
        .then([
          {
            type: 'ShareDeletionRequested',
            data: { instanceIds: ['i1'], force: false, requestedAt: now },
          },
        ]));
  });
});
