/** Sent by the share node that owns the pool a share was scheduled onto. */
export type PlacementCommand = {
  type: 'RejectSharePlacement';
  instanceId: string;
  host: string;
  message: string;
  now: string;
};
