import type { MigrationCommand } from './share-migration.commands.js';
import { decideMigration } from './share-migration.decide.js';
import type { MigrationEvent } from './share-migration.events.js';
import { evolveMigration } from './share-migration.evolve.js';
import { activeShareSlice } from './share.slice.js';

/** Share migration (Manila 2.22+): start, the two phases, complete, cancel, task state reset. */
export const migrationSlice = activeShareSlice<MigrationCommand, MigrationEvent>({
  commandTypes: [
    'StartShareMigration',
    'AcceptShareMigrationHost',
    'ChooseShareMigrationMethod',
    'RecordShareMigrationCopy',
    'RecordShareMigrationProgress',
    'CompleteShareMigration',
    'RecordShareMigrationCompleted',
    'CancelShareMigration',
    'RecordShareMigrationCancelled',
    'FailShareMigration',
    'ResetShareTaskState',
  ],
  eventTypes: [
    'ShareMigrationStarted',
    'ShareMigrationSkipped',
    'ShareMigrationHostAccepted',
    'ShareMigrationMethodSelected',
    'ShareMigrationReadOnlyAccessQueued',
    'ShareMigrationCopyStarted',
    'ShareMigrationProgressed',
    'ShareMigrationFirstPhaseCompleted',
    'ShareMigrationCompletionRequested',
    'ShareMigrationCompleted',
    'ShareMigrationCancelRequested',
    'ShareMigrationCancelled',
    'ShareMigrationFailed',
    'ShareTaskStateReset',
  ],
  decide: decideMigration,
  evolve: evolveMigration,
});
