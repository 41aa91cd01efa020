import type { ReplicaEvent } from '#hawser/domain';

type Entry = { readonly category: 'share'; readonly version: number; readonly meaning: string };

const entry = (meaning: string): Entry => ({ category: 'share', version: 1, meaning });

/** The replication events of the share stream (reference section 5), spread into the catalogue. */
export const REPLICA_EVENT_CATALOGUE: Readonly<Record<ReplicaEvent['type'], Entry>> = {
  ReplicaRequested: entry(
    'A user asked for another replica: creating, out_of_sync, with snapshot instances and rules.',
  ),
  ReplicaScheduled: entry('The scheduler chose a pool of the same replication domain.'),
  ReplicaSchedulingFailed: entry('No pool passed the filters: the replica is error/error.'),
  ReplicaCreated: entry('The driver built the replica and reported its replica_state.'),
  ReplicaCreationFailed: entry('The driver failed to build the replica: error/error.'),
  ReplicaDeletionRequested: entry('Deletion of a replica was asked for (forced or not).'),
  ReplicaDeleted: entry('A replica is gone with its snapshot instances; its quota is released.'),
  ReplicaDeletionFailed: entry('The driver failed to delete the replica (error_deleting).'),
  ReplicaPromotionRequested: entry('A promotion began: the replica is replication_change.'),
  ReplicaPromoted: entry('The replica is active; the other replicas have the reported states.'),
  ReplicaPromotionFailed: entry('The driver failed to promote: every replica is in error.'),
  ReplicaResyncRequested: entry('An admin asked for the replica state to be refreshed now.'),
  ReplicaStateRefreshed: entry('The driver reported a new replica_state for a replica.'),
  ReplicaStateReset: entry('An admin reset the replica_state of a replica.'),
};
