import type { ActiveShare, ReplicationState, ShareInstanceState } from './share.state.js';

export const replicationOf = (state: ActiveShare): ReplicationState =>
  state.replication ?? { quotaHolders: [], forcedDeletions: [] };

/** Every instance of a replicated share is a replica (reference 1.3). */
export const replicasOf = (state: ActiveShare): readonly ShareInstanceState[] =>
  state.instances.filter((i) => i.replicaState !== null);

/**
 * Manila's cast_rules_to_readonly: readable non-active replicas serve every rule read-only, and
 * so does a migration's source while a copy that cannot keep it writable runs.
 */
export const castsRulesToReadonly = (state: ActiveShare, instance: ShareInstanceState): boolean =>
  (state.capabilities?.replicationType === 'readable' &&
    instance.replicaState !== null &&
    instance.replicaState !== 'active') ||
  (state.migration?.sourceRulesReadOnly === true &&
    state.migration.sourceInstanceId === instance.id);

/** A promotion in progress makes the share busy (reference 5.4, seed 001). */
export const promotionInProgress = (state: ActiveShare): boolean =>
  state.instances.some((i) => i.status === 'replication_change');
