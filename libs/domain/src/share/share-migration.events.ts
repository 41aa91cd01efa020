import type { DomainEvent } from '../shared/decider.js';
import type {
  HintsOverride,
  MigrationMethod,
  MigrationOptions,
  MigrationShareType,
  TaskState,
} from './share-migration.types.js';
import type { ExportLocation } from './share.types.js';

/**
 * `migration_start` accepted: the source instance is `migrating`, a destination instance
 * `migrating_to` on `host`, the share `migration_starting`. `hintsOverride` records a forced
 * destination that breaks the share's hints, and by whom.
 */
export type ShareMigrationStarted = DomainEvent<
  'ShareMigrationStarted',
  {
    sourceInstanceId: string;
    destinationInstanceId: string;
    host: string;
    availabilityZone: string;
    options: MigrationOptions;
    newShareType: MigrationShareType | null;
    hintsOverride: HintsOverride | null;
    startedAt: string;
  }
>;

/** Destination, type and network are the share's own: nothing to do (Manila's 200). */
export type ShareMigrationSkipped = DomainEvent<'ShareMigrationSkipped', { skippedAt: string }>;

export type ShareMigrationHostAccepted = DomainEvent<
  'ShareMigrationHostAccepted',
  { acceptedAt: string }
>;

export type ShareMigrationMethodSelected = DomainEvent<
  'ShareMigrationMethodSelected',
  { method: MigrationMethod; chosenAt: string }
>;

/**
 * The source's access rules are cast read-only for the copy (Manila's
 * `_cast_access_rules_to_readonly`): its rules are queued again, and its node applies them all
 * read-only before the data moves.
 */
export type ShareMigrationReadOnlyAccessQueued = DomainEvent<
  'ShareMigrationReadOnlyAccessQueued',
  { instanceId: string; castAt: string }
>;

/** The destination driver took the data move on; the claim is over. */
export type ShareMigrationCopyStarted = DomainEvent<
  'ShareMigrationCopyStarted',
  { commandId: string; progress: number; copyStartedAt: string }
>;

export type ShareMigrationProgressed = DomainEvent<
  'ShareMigrationProgressed',
  { progress: number; progressedAt: string }
>;

/** The first phase is over: the data is at the destination, which waits for completion. */
export type ShareMigrationFirstPhaseCompleted = DomainEvent<
  'ShareMigrationFirstPhaseCompleted',
  { exportLocations: ExportLocation[]; doneAt: string }
>;

/**
 * `migration_complete`: the share switches to the destination instance (available, its export
 * locations and access rules), the source instance is deleted; a new share type applies.
 */
export type ShareMigrationCompletionRequested = DomainEvent<
  'ShareMigrationCompletionRequested',
  { sourceInstanceId: string; destinationInstanceId: string; requestedAt: string }
>;

export type ShareMigrationCompleted = DomainEvent<
  'ShareMigrationCompleted',
  { completedAt: string }
>;

/** `migration_cancel`: the destination instance is deleted, the source left as it was. */
export type ShareMigrationCancelRequested = DomainEvent<
  'ShareMigrationCancelRequested',
  { destinationInstanceId: string; requestedAt: string }
>;

export type ShareMigrationCancelled = DomainEvent<
  'ShareMigrationCancelled',
  { cancelledAt: string }
>;

/**
 * The migration failed: the source is available again, untouched; the destination is deleted
 * (`destinationCleanup`), or dropped when no driver ever held it.
 */
export type ShareMigrationFailed = DomainEvent<
  'ShareMigrationFailed',
  {
    destinationInstanceId: string;
    destinationCleanup: boolean;
    message: string;
    failedAt: string;
  }
>;

export type ShareTaskStateReset = DomainEvent<
  'ShareTaskStateReset',
  { taskState: TaskState | null; resetAt: string }
>;

export type MigrationEvent =
  | ShareMigrationStarted
  | ShareMigrationSkipped
  | ShareMigrationHostAccepted
  | ShareMigrationMethodSelected
  | ShareMigrationReadOnlyAccessQueued
  | ShareMigrationCopyStarted
  | ShareMigrationProgressed
  | ShareMigrationFirstPhaseCompleted
  | ShareMigrationCompletionRequested
  | ShareMigrationCompleted
  | ShareMigrationCancelRequested
  | ShareMigrationCancelled
  | ShareMigrationFailed
  | ShareTaskStateReset;
