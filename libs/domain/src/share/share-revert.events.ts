import type { DomainEvent } from '../shared/decider.js';

/**
 * A revert to the share's latest snapshot was asked for: the instance (the active replica of a
 * share with replicas) is `reverting`, its snapshot instance `restoring`.
 */
export type ShareRevertRequested = DomainEvent<
  'ShareRevertRequested',
  { snapshotId: string; instanceId: string; snapshotInstanceId: string; requestedAt: string }
>;

/** The driver restored the snapshot's data: the share is available with the snapshot's size. */
export type ShareReverted = DomainEvent<
  'ShareReverted',
  {
    instanceId: string;
    commandId: string;
    snapshotId: string;
    snapshotInstanceId: string;
    size: number;
    revertedAt: string;
  }
>;

/** The driver failed: the instance is `reverting_error`, the snapshot `available` again. */
export type ShareRevertFailed = DomainEvent<
  'ShareRevertFailed',
  {
    instanceId: string;
    commandId: string;
    snapshotId: string;
    snapshotInstanceId: string;
    message: string;
    failedAt: string;
  }
>;

export type RevertEvent = ShareRevertRequested | ShareReverted | ShareRevertFailed;
