/** Read-only access rules of a mountable snapshot (2.32): asked for, and applied by the node. */
export type SnapshotAccessCommand =
  | {
      type: 'AllowSnapshotAccess';
      snapshotId: string;
      accessId: string;
      accessType: string;
      accessTo: string;
      /** IPv6 addresses are accepted from 2.38, as for shares. */
      ipv6: boolean;
      now: string;
    }
  | { type: 'DenySnapshotAccess'; snapshotId: string; accessId: string; now: string }
  | {
      type: 'CompleteSnapshotAccessUpdate';
      snapshotId: string;
      snapshotInstanceId: string;
      commandId: string;
      now: string;
    }
  | {
      type: 'FailSnapshotAccessUpdate';
      snapshotId: string;
      snapshotInstanceId: string;
      commandId: string;
      message: string;
      now: string;
    };
