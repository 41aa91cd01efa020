/** Revert to a snapshot (2.27): asked for by a user, settled by the node that ran the driver. */
export type RevertCommand =
  | { type: 'RevertShareToSnapshot'; snapshotId: string; now: string }
  | { type: 'CompleteShareRevert'; instanceId: string; commandId: string; now: string }
  | {
      type: 'FailShareRevert';
      instanceId: string;
      commandId: string;
      message: string;
      now: string;
    };
