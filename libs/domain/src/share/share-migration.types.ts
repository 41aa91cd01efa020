import type { ShareCapabilities } from '../share-type/extra-specs.js';
import type { ExportLocation, RequestedShareType } from './share.types.js';

/** Manila's share `task_state` values (common/constants.py TASK_STATE_*). */
export const TASK_STATES = [
  'migration_starting',
  'migration_in_progress',
  'migration_completing',
  'migration_success',
  'migration_error',
  'migration_cancelled',
  'migration_cancel_in_progress',
  'migration_driver_starting',
  'migration_driver_in_progress',
  'migration_driver_phase1_done',
  'data_copying_starting',
  'data_copying_in_progress',
  'data_copying_completing',
  'data_copying_completed',
  'data_copying_cancelled',
  'data_copying_error',
] as const;

export type TaskState = (typeof TASK_STATES)[number];

/** Task states Manila's TASK_STATE_STATUSES leaves out: reset_task_state refuses them. */
const NOT_RESETTABLE: ReadonlySet<TaskState> = new Set<TaskState>([
  'migration_cancel_in_progress',
  'migration_driver_starting',
]);

/** What `reset_task_state` accepts (Manila's TASK_STATE_STATUSES, `null` included). */
export const RESETTABLE_TASK_STATES: readonly (TaskState | null)[] = [
  ...TASK_STATES.filter((state) => !NOT_RESETTABLE.has(state)),
  null,
];

/** Manila's BUSY_TASK_STATES: a share in one of them refuses most changes (reference 2.6). */
export const BUSY_TASK_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'migration_starting',
  'migration_in_progress',
  'migration_completing',
  'migration_driver_starting',
  'migration_driver_in_progress',
  'migration_driver_phase1_done',
  'data_copying_starting',
  'data_copying_in_progress',
  'data_copying_completing',
  'data_copying_completed',
]);

/**
 * How the data moves: `driver` (the destination driver moves the share itself) or `host`
 * (Hawser copies the files, with progress).
 */
export type MigrationMethod = 'driver' | 'host';

/** Manila's migration_start flags (reference 3.4, driver interface `migration_*`). */
export interface MigrationOptions {
  readonly forceHostAssistedMigration: boolean;
  readonly preserveMetadata: boolean;
  readonly writable: boolean;
  readonly nondisruptive: boolean;
  readonly preserveSnapshots: boolean;
}

/** A destination allowed in spite of the share's hints: which hints, and who forced it. */
export interface HintsOverride {
  readonly userId: string;
  readonly projectId: string;
  /** Each hint the destination breaks, with the share it names. */
  readonly broken: readonly { readonly hint: string; readonly shareId: string }[];
}

/** A new share type the share takes when the migration completes (`new_share_type_id`). */
export interface MigrationShareType {
  readonly shareType: RequestedShareType;
  readonly capabilities: ShareCapabilities;
}

/** A migration under way; the share's `task_state` says how far it is. */
export interface MigrationState {
  readonly sourceInstanceId: string;
  readonly destinationInstanceId: string;
  readonly destinationHost: string;
  readonly destinationAvailabilityZone: string;
  readonly options: MigrationOptions;
  readonly newShareType: MigrationShareType | null;
  readonly hintsOverride: HintsOverride | null;
  readonly method: MigrationMethod | null;
  /**
   * The source's rules are cast read-only while the data moves (Manila's
   * cast_rules_to_readonly: a host-assisted copy, or a driver that cannot keep the share
   * writable); the copy waits for them, and a cancel or failure gives them their levels back.
   */
  readonly sourceRulesReadOnly: boolean;
  /** 0..100, from the bytes copied. */
  readonly progress: number;
  /** The destination's export locations, once its first phase is done. */
  readonly destinationExportLocations: readonly ExportLocation[];
}

/** The `task_state` of a migration whose copy runs (the node polls it). */
export const COPYING_TASK_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'migration_driver_in_progress',
  'data_copying_in_progress',
]);

/** Where the first phase is over and `migration_complete` may follow. */
export const PHASE1_DONE_TASK_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'migration_driver_phase1_done',
  'data_copying_completed',
]);

export const isBusyTaskState = (taskState: TaskState | null | undefined): boolean =>
  taskState !== null && taskState !== undefined && BUSY_TASK_STATES.has(taskState);
