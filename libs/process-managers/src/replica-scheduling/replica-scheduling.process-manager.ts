import type { CommandHandler } from '#hawser/application';
import { attemptedHostsOf, SHARE_STREAM_PREFIX, shareDecider, isActiveShare } from '#hawser/domain';
import type { RecordedEvent } from '#hawser/eventstore';
import type { ProcessManager } from '../runtime/process-manager.js';
import { reactionContext } from '../runtime/reaction-context.js';
import { AffinityHints, shareLoaderOf } from '../share-affinity/affinity-hints.js';
import type { ReplicaPlacement } from './replica-placement.port.js';
import { shareEvents } from '../../../../eventstore/decoders.js';

/**
 * Places every requested replica among the pools of the active replica's replication domain
 * (reference 5.1): ReplicaRequested -> the scheduler -> ReplicaScheduled, or
 * ReplicaSchedulingFailed. Every ReplicaScheduled, whoever recorded it, debits the chosen pool.
 * A replica its pool's node refused (ReplicaPlacementRejected) is placed again without the
 * pools that refused it, and fails past the maximum number of attempts. The share's scheduler
 * hints, as its metadata records them now, apply to the replica too (reference 7.4).
 */
export const replicaSchedulingProcessManager = (
  commands: CommandHandler,
  placement: ReplicaPlacement,
  clock: () => string = () => new Date().toISOString(),
  hints: AffinityHints = new AffinityHints(shareLoaderOf(commands)),
): ProcessManager => {
  /** `refusals`: how many pools had refused the replica when `event` was recorded. */
  const place = async (event: RecordedEvent, replicaId: string, refusals: number) => {
    const { state } = await commands.load(shareDecider, event.streamId);
    if (!isActiveShare(state)) return;
    const replica = state.instances.find((i) => i.id === replicaId);
    // Deleted meanwhile, placed already, or handed back again since (a replay of this event).
    if (!replica || replica.host !== '' || replica.status !== 'creating') return;
    const attemptedHosts = attemptedHostsOf(replica);
    if (attemptedHosts.length !== refusals) return;
    const onlyHost = replica.replicaRequest?.onlyHost;
    // An admin's only_host overrides the share's hints (reference 7.4).
    const decision = placement.placeReplica(
      onlyHost === undefined
        ? { share: state, replica, attemptedHosts, affinity: await hints.ofShare(state) }
        : { share: state, replica, attemptedHosts, onlyHost },
    );
    await commands.handle(
      shareDecider,
      event.streamId,
      decision.placed
        ? {
            type: 'ScheduleReplica',
            replicaId,
            host: decision.host,
            availabilityZone: decision.availabilityZone,
            now: clock(),
          }
        : {
            type: 'FailReplicaScheduling',
            replicaId,
            message: decision.message,
            detail: decision.detail,
            now: clock(),
          },
      reactionContext(event, 'schedule-replica', 'scheduler'),
      { retryOnConflict: 5 },
    );
  };

  return {
    name: 'replica-scheduling',
    filter: {
      streamPrefixes: [SHARE_STREAM_PREFIX],
      eventTypes: ['ReplicaRequested', 'ReplicaScheduled', 'ReplicaPlacementRejected'],
    },
    async handle(recorded: RecordedEvent): Promise<void> {
      const event = shareEvents.decode(recorded);
      switch (event.type) {
        case 'ReplicaScheduled': {
          const data = event.data;
          placement.consume(data.host, data.replicaId, data.size, Date.parse(data.scheduledAt));
          return;
        }
        case 'ReplicaRequested':
          return place(event, event.data.replicaId, 0);
        case 'ReplicaPlacementRejected': {
          const data = event.data;
          return place(event, data.replicaId, data.attemptedHosts.length);
        }
      }
    },
  };
};
