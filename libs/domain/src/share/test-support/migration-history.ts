import type { MigrationOptions } from '../share-migration.types.js';
import type { ShareCommand } from '../share.commands.js';
import type { ShareEvent } from '../share.events.js';
import { later, now, operationStarted } from './share-history.js';

/** Past events of a migration of the share of share-history.ts (instance i1) to `DEST_HOST`. */
export const DEST_HOST = 'node2@b2#p2';

export const HOST_ASSISTED: MigrationOptions = {
  forceHostAssistedMigration: true,
  preserveMetadata: false,
  writable: false,
  nondisruptive: false,
  preserveSnapshots: false,
};

export const migrationStarted = (options: MigrationOptions = HOST_ASSISTED): ShareEvent => ({
  type: 'ShareMigrationStarted',
  data: {
    sourceInstanceId: 'i1',
    destinationInstanceId: 'i2',
    host: DEST_HOST,
    availabilityZone: 'az-2',
    options,
    newShareType: null,
    hintsOverride: null,
    startedAt: now,
  },
});

export const hostAccepted: ShareEvent = {
  type: 'ShareMigrationHostAccepted',
  data: { acceptedAt: now },
};

export const methodChosen = (method: 'driver' | 'host' = 'host'): ShareEvent => ({
  type: 'ShareMigrationMethodSelected',
  data: { method, chosenAt: now },
});

/** The destination node's claim of the driver's start of the data move. */
export const migrationStartClaim: ShareCommand = {
  type: 'StartDriverOperation',
  instanceId: 'i2',
  operation: 'migration_start',
  commandId: 'c-mig',
  host: DEST_HOST,
  now: later,
};

export const destinationClaimed: ShareEvent = operationStarted(
  'i2',
  DEST_HOST,
  'migration_start',
  'c-mig',
  now,
);

export const copyStarted: ShareEvent = {
  type: 'ShareMigrationCopyStarted',
  data: { commandId: 'c-mig', progress: 0, copyStartedAt: now },
};

export const DEST_EXPORT = {
  id: 'e2',
  path: '/exports/i2',
  preferred: true,
  isAdminOnly: false,
};

export const phase1Done: ShareEvent = {
  type: 'ShareMigrationFirstPhaseCompleted',
  data: { exportLocations: [DEST_EXPORT], doneAt: later },
};

/** A host-assisted migration whose copy runs. */
export const copying = (method: 'driver' | 'host' = 'host'): ShareEvent[] => [
  migrationStarted(),
  hostAccepted,
  methodChosen(method),
  destinationClaimed,
  copyStarted,
];

/** The migration failed: the source available again, the destination to delete. */
export const migrationFailed: ShareEvent = {
  type: 'ShareMigrationFailed',
  data: { destinationInstanceId: 'i2', destinationCleanup: true, message: 'x', failedAt: later },
};
