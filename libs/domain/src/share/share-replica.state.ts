import type { ShareInstanceState, ShareState } from './share.state.js';

/** What a share keeps about its replicas beyond the instances themselves. */
export interface ReplicationState {
  /** Quota holders of added replicas not yet released (one per replica beyond the first). */
  readonly quotaHolders: readonly string[];
  /** Replicas whose deletion was forced: a driver failure then removes them anyway. */
  readonly forcedDeletions: readonly string[];
}

export const replicationOf = (state: ShareState): ReplicationState =>
  state.replication ?? { quotaHolders: [], forcedDeletions: [] };

/** Every instance of a replicated share is a replica (reference 1.3). */
export const replicasOf = (state: ShareState): readonly ShareInstanceState[] =>
  state.instances.filter((i) => i.replicaState !== null);

/** Manila's cast_rules_to_readonly: readable non-active replicas serve every rule read-only. */
export const castsRulesToReadonly = (state: ShareState, instance: ShareInstanceState): boolean =>
  state.capabilities?.replicationType === 'readable' &&
  instance.replicaState !== null &&
  instance.replicaState !== 'active';

/** A promotion in progress makes the share busy (reference 5.4, seed 001). */
export const promotionInProgress = (state: ShareState): boolean =>
  state.instances.some((i) => i.status === 'replication_change');
