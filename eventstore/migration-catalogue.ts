import type { MigrationEvent } from '#hawser/domain';

type Entry = { readonly category: 'share'; readonly version: number; readonly meaning: string };

const entry = (meaning: string): Entry => ({ category: 'share', version: 1, meaning });

/** The migration events of the share stream (Manila 2.22+), spread into the catalogue. */
export const MIGRATION_EVENT_CATALOGUE: Readonly<Record<MigrationEvent['type'], Entry>> = {
  ShareMigrationStarted: entry(
    'migration_start accepted: source migrating, a destination instance migrating_to; a forced ' +
      'destination records the hints it breaks and who forced it.',
  ),
  ShareMigrationSkipped: entry("Destination and type are the share's own: migration_success."),
  ShareMigrationHostAccepted: entry('The scheduler filters passed the destination pool.'),
  ShareMigrationMethodSelected: entry(
    'The destination node chose driver-assisted or host-assisted.',
  ),
  ShareMigrationReadOnlyAccessQueued: entry(
    "The source's access rules queued again to be applied read-only while the data moves.",
  ),
  ShareMigrationCopyStarted: entry('The destination driver started moving the data.'),
  ShareMigrationProgressed: entry('A poll found more of the data moved (total_progress).'),
  ShareMigrationFirstPhaseCompleted: entry(
    'The data is at the destination; migration_complete may follow.',
  ),
  ShareMigrationCompletionRequested: entry(
    'migration_complete: the destination is the share now; the source instance is deleted.',
  ),
  ShareMigrationCompleted: entry('The source instance is gone: migration_success.'),
  ShareMigrationCancelRequested: entry('migration_cancel: the destination instance is deleted.'),
  ShareMigrationCancelled: entry('The destination is gone, the source available: cancelled.'),
  ShareMigrationFailed: entry(
    'The migration failed (migration_error): source available, destination cleaned up.',
  ),
  ShareTaskStateReset: entry("An admin reset the share's task_state."),
};
