import { REPLICA_COMMAND_TYPES, type ReplicaCommand } from './share-replica.commands.js';
import { decideReplica } from './share-replica.decide.js';
import { REPLICA_EVENT_TYPES, type ReplicaEvent } from './share-replica.events.js';
import { evolveReplica } from './share-replica.evolve.js';
import { activeShareSlice } from './share.slice.js';

/** Replicas: added, placed, created, promoted, resynced and deleted. */
export const replicaSlice = activeShareSlice<ReplicaCommand, ReplicaEvent>({
  commandTypes: REPLICA_COMMAND_TYPES,
  eventTypes: REPLICA_EVENT_TYPES,
  decide: decideReplica,
  evolve: evolveReplica,
});
