/** Sent by the share node that owns the pool a share or a replica was scheduled onto. */
export type PlacementCommand =
  | {
      type: 'RejectSharePlacement';
      instanceId: string;
      host: string;
      message: string;
      now: string;
    }
  | {
      type: 'RejectReplicaPlacement';
      replicaId: string;
      host: string;
      message: string;
      now: string;
    };
