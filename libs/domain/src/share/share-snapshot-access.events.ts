import type { DomainEvent } from '../shared/decider.js';
import type { AccessType } from './share-access.state.js';

/** A read-only rule was added to a mountable snapshot: `queued_to_apply` on its instances. */
export type SnapshotAccessAllowed = DomainEvent<
  'SnapshotAccessAllowed',
  {
    snapshotId: string;
    accessId: string;
    accessType: AccessType;
    accessTo: string;
    snapshotInstances: { id: string; shareInstanceId: string }[];
    createdAt: string;
  }
>;

/** A rule of the snapshot is to go: `queued_to_deny`. */
export type SnapshotAccessDenied = DomainEvent<
  'SnapshotAccessDenied',
  {
    snapshotId: string;
    accessId: string;
    snapshotInstances: { id: string; shareInstanceId: string }[];
    requestedAt: string;
  }
>;

/** The node enforced the snapshot's rules: the queued ones are active, the denied ones gone. */
export type SnapshotAccessUpdated = DomainEvent<
  'SnapshotAccessUpdated',
  {
    snapshotId: string;
    snapshotInstanceId: string;
    commandId: string;
    applied: string[];
    denied: string[];
    updatedAt: string;
  }
>;

/** The node could not enforce them: the queued rules are `error`. */
export type SnapshotAccessUpdateFailed = DomainEvent<
  'SnapshotAccessUpdateFailed',
  {
    snapshotId: string;
    snapshotInstanceId: string;
    commandId: string;
    failed: string[];
    message: string;
    failedAt: string;
  }
>;

export type SnapshotAccessEvent =
  SnapshotAccessAllowed | SnapshotAccessDenied | SnapshotAccessUpdated | SnapshotAccessUpdateFailed;
