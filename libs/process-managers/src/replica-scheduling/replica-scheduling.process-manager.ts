import type { CommandHandler } from '#hawser/application';
import { shareDecider, type ShareEvent } from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import { shareEvents } from '../../../../eventstore/decoders.js';
import type { ProcessManager } from '../runtime/process-manager.js';
import { reactionContext } from '../runtime/reaction-context.js';
import { streamNow } from '../runtime/workflow-history.js';
import { workflowProcessManager } from '../runtime/workflow-process-manager.js';
import { AffinityHints, shareLoaderOf } from '../share-affinity/affinity-hints.js';
import type { ReplicaPlacement } from './replica-placement.port.js';
import {
  replicaPlacementOutcome,
  replicaSchedulingWorkflow,
  type ReplicaSchedulingOutput,
} from './replica-scheduling.workflow.js';

/**
 * The replica scheduling workflow's executor: the scheduler places the replica (with the
 * share's hints resolved from the log), and the placement is recorded on the share's stream
 * under an id derived from the causing event.
 */
export const replicaSchedulingProcessManager = (
  commands: CommandHandler,
  placement: ReplicaPlacement,
  clock: () => string = () => new Date().toISOString(),
  hints: AffinityHints = new AffinityHints(shareLoaderOf(commands)),
): ProcessManager => {
  const dispatch = async (output: ReplicaSchedulingOutput, cause: Decoded<ShareEvent>) => {
    if (output.type === 'ConsumePoolCapacity') {
      placement.consume(output.host, output.key, output.sizeGiB, output.placedAt);
      return;
    }
    const { request } = output;
    const decision = placement.placeReplica(
      request.onlyHost === undefined
        ? { ...request, affinity: await hints.ofShare(request.share) }
        : request,
    );
    await commands.handle(
      shareDecider,
      cause.streamId,
      replicaPlacementOutcome(request.replica.id, decision, clock()),
      reactionContext(cause, 'schedule-replica', 'scheduler'),
      { retryOnConflict: 5 },
    );
  };

  return workflowProcessManager(replicaSchedulingWorkflow, {
    decode: (recorded) => shareEvents.decode(recorded),
    load: streamNow(commands, replicaSchedulingWorkflow),
    dispatch,
  });
};
