import type { ExportLocation, ReplicaState, ShareStatus } from './share.types.js';

export type ReplicaCommand =
  | {
      type: 'RequestReplica';
      replicaId: string;
      availabilityZone: string | null;
      /** An admin's `only_host` (2.67+): that pool, and the share's affinity hints not applied. */
      onlyHost?: string;
      now: string;
    }
  | {
      type: 'ScheduleReplica';
      replicaId: string;
      host: string;
      availabilityZone: string;
      now: string;
    }
  | {
      type: 'FailReplicaScheduling';
      replicaId: string;
      message: string;
      detail: Record<string, unknown>;
      now: string;
    }
  | {
      type: 'CompleteReplicaCreation';
      replicaId: string;
      commandId: string;
      replicaState: ReplicaState;
      exportLocations: ExportLocation[];
      accessRulesStatus: 'active' | 'error';
      snapshotInstanceIds: string[];
      now: string;
    }
  | {
      type: 'FailReplicaCreation';
      replicaId: string;
      commandId: string;
      message: string;
      now: string;
    }
  | { type: 'DeleteReplica'; replicaId: string; force: boolean; now: string }
  | { type: 'CompleteReplicaDeletion'; replicaId: string; commandId: string; now: string }
  | {
      type: 'FailReplicaDeletion';
      replicaId: string;
      commandId: string;
      message: string;
      now: string;
    }
  | { type: 'PromoteReplica'; replicaId: string; isAdmin: boolean; now: string }
  | {
      type: 'CompleteReplicaPromotion';
      replicaId: string;
      commandId: string;
      /** What the driver reported per replica; replicas it left out keep their state. */
      replicas: {
        replicaId: string;
        replicaState?: ReplicaState;
        exportLocations?: ExportLocation[];
      }[];
      now: string;
    }
  | {
      type: 'FailReplicaPromotion';
      replicaId: string;
      commandId: string;
      message: string;
      now: string;
    }
  | { type: 'ResyncReplica'; replicaId: string; now: string }
  /** The node's refresh outcome: the driver's replica_state, or `failed` when it raised. */
  | {
      type: 'RefreshReplicaState';
      replicaId: string;
      outcome: Exclude<ReplicaState, 'active'> | 'failed';
      now: string;
    }
  | { type: 'ResetReplicaStatus'; replicaId: string; status: ShareStatus; now: string }
  | { type: 'ResetReplicaState'; replicaId: string; replicaState: ReplicaState; now: string };

export const REPLICA_COMMAND_TYPES: readonly ReplicaCommand['type'][] = [
  'RequestReplica',
  'ScheduleReplica',
  'FailReplicaScheduling',
  'CompleteReplicaCreation',
  'FailReplicaCreation',
  'DeleteReplica',
  'CompleteReplicaDeletion',
  'FailReplicaDeletion',
  'PromoteReplica',
  'CompleteReplicaPromotion',
  'FailReplicaPromotion',
  'ResyncReplica',
  'RefreshReplicaState',
  'ResetReplicaStatus',
  'ResetReplicaState',
];
