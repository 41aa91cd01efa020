import type { ShareEvent } from '#hawser/domain';
import {
  copying,
  DEST_HOST,
  migrationFailed,
  migrationStarted,
  phase1Done,
} from '../../../domain/src/share/test-support/migration-history.js';
import {
  availableShare,
  later,
  shareRequested,
} from '../../../domain/src/share/test-support/share-history.js';
import { recordedShareEvent, workflowSpec } from '../test-support/workflow-spec.js';
import { shareMigrationWorkflow } from './share-migration.workflow.js';

const spec = workflowSpec(shareMigrationWorkflow);
const recorded = (event: ShareEvent, revision = 0) => recordedShareEvent('s1', revision, event);
const requested = shareRequested();
if (requested.type !== 'ShareRequested') throw new Error('shareRequested() is a ShareRequested');
const { shareType } = requested.data;

const deleted = (instanceId: string): ShareEvent => ({
  type: 'ShareInstanceDeleted',
  data: { instanceId, commandId: `c-del-${instanceId}`, deletedAt: later },
});
const completionRequested: ShareEvent = {
  type: 'ShareMigrationCompletionRequested',
  data: { sourceInstanceId: 'i1', destinationInstanceId: 'i2', requestedAt: later },
};
const cancelRequested: ShareEvent = {
  type: 'ShareMigrationCancelRequested',
  data: { destinationInstanceId: 'i2', requestedAt: later },
};

describe('share-migration workflow', () => {
  it('given a started migration, when it is recorded, then the scheduler checks the destination', () =>
    spec
      .given(...availableShare(), migrationStarted())
      .when(recorded(migrationStarted(), 4))
      .then([
        {
          type: 'CheckMigrationHost',
          check: {
            shareId: 's1',
            instanceId: 'i2',
            host: DEST_HOST,
            size: 2,
            shareProto: 'NFS',
            shareType,
          },
        },
      ]));
  it('given the host already accepted, when the start is replayed, then nothing is asked again', () =>
    spec
      .given(...availableShare(), ...copying())
      .when(recorded(migrationStarted(), 4))
      .then([]));
  it('given a completion, when the source instance is deleted, then the migration is recorded as completed', () =>
    spec
      .given(...availableShare(), ...copying(), phase1Done, completionRequested, deleted('i1'))
      .when(recorded(deleted('i1'), 11))
      .then([
        {
          type: 'RecordMigrationStep',
          command: { type: 'RecordShareMigrationCompleted' },
          purpose: 'migration-completed',
        },
      ]));
  it('given a cancellation, when the destination instance is deleted, then the migration is recorded as cancelled', () =>
    spec
      .given(...availableShare(), ...copying(), cancelRequested, deleted('i2'))
      .when(recorded(deleted('i2'), 10))
      .then([
        {
          type: 'RecordMigrationStep',
          command: { type: 'RecordShareMigrationCancelled' },
          purpose: 'migration-cancelled',
        },
      ]));
  it('given a failed migration, when its destination is cleaned up, then nothing follows', () =>
    spec
      .given(...availableShare(), ...copying(), migrationFailed)
      .when(recorded(deleted('i2'), 10))
      .then([]));
});
