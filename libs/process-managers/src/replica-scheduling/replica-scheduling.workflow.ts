import {
  attemptedHostsOf,
  evolveShare,
  initialShareState,
  isActiveShare,
  SHARE_STREAM_PREFIX,
  type ShareCommand,
  type ShareEvent,
  type ShareState,
} from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import type { Workflow } from '../runtime/workflow.js';
import { poolDebit, type ConsumePoolCapacity } from '../share-scheduling/pool-debit.js';
import type { PlacementDecision } from '../share-scheduling/placement.port.js';
import type { ReplicaPlacementRequest } from './replica-placement.port.js';

/** What the replica scheduling workflow asks of the scheduler. */
export type ReplicaSchedulingOutput =
  | ConsumePoolCapacity
  /**
   * Place the replica. Without an admin's `only_host`, the share's hints as its metadata
   * records them are resolved first and apply to the replica too (reference 7.4).
   */
  | {
      readonly type: 'PlaceReplica';
      readonly request: Omit<ReplicaPlacementRequest, 'affinity'>;
    };

type Input = Decoded<ShareEvent>;

/**
 * Places every requested replica among the pools of the active replica's replication domain
 * (reference 5.1): ReplicaRequested -> the scheduler -> ReplicaScheduled, or
 * ReplicaSchedulingFailed. Every ReplicaScheduled, whoever recorded it, debits the chosen pool.
 * A replica its pool's node refused (ReplicaPlacementRejected) is placed again without the
 * pools that refused it, and fails past the maximum number of attempts. The share is read as
 * it is now: a replica deleted or placed meanwhile, or handed back again since (a replay of an
 * older event), is not placed.
 */
export const replicaSchedulingWorkflow: Workflow<
  Input,
  ShareState,
  ReplicaSchedulingOutput,
  ShareEvent
> = {
  name: 'replica-scheduling',
  streamsApart: true,
  filter: {
    streamPrefixes: [SHARE_STREAM_PREFIX],
    eventTypes: ['ReplicaRequested', 'ReplicaScheduled', 'ReplicaPlacementRejected'],
  },
  initialState: initialShareState,
  evolve: evolveShare,
  readsHistory: (event) => event.type !== 'ReplicaScheduled',
  decide: (event, share) => {
    switch (event.type) {
      case 'ReplicaScheduled': {
        const { host, replicaId, size, scheduledAt } = event.data;
        return [poolDebit(host, replicaId, size, scheduledAt)];
      }
      case 'ReplicaRequested':
        return placement(share, event.data.replicaId, 0);
      case 'ReplicaPlacementRejected':
        return placement(share, event.data.replicaId, event.data.attemptedHosts.length);
      default:
        return [];
    }
  },
};

/** `refusals`: how many pools had refused the replica when the event was recorded. */
const placement = (
  share: ShareState,
  replicaId: string,
  refusals: number,
): ReplicaSchedulingOutput[] => {
  if (!isActiveShare(share)) return [];
  const replica = share.instances.find((i) => i.id === replicaId);
  if (!replica || replica.host !== '' || replica.status !== 'creating') return [];
  const attemptedHosts = attemptedHostsOf(replica);
  if (attemptedHosts.length !== refusals) return [];
  const onlyHost = replica.replicaRequest?.onlyHost;
  return [
    {
      type: 'PlaceReplica',
      request:
        onlyHost === undefined
          ? { share, replica, attemptedHosts }
          : { share, replica, attemptedHosts, onlyHost },
    },
  ];
};

/** The share command that records the scheduler's placement of replica `replicaId`. */
export const replicaPlacementOutcome = (
  replicaId: string,
  decision: PlacementDecision,
  now: string,
): ShareCommand =>
  decision.placed
    ? {
        type: 'ScheduleReplica',
        replicaId,
        host: decision.host,
        availabilityZone: decision.availabilityZone,
        now,
      }
    : {
        type: 'FailReplicaScheduling',
        replicaId,
        message: decision.message,
        detail: decision.detail,
        now,
      };
