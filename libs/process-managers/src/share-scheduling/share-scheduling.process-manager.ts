import type { CommandHandler } from '#hawser/application';
import { shareDecider, type ShareCommand, type ShareEvent } from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import { shareEvents } from '../../../../eventstore/decoders.js';
import type { ProcessManager } from '../runtime/process-manager.js';
import { reactionContext } from '../runtime/reaction-context.js';
import { streamNow } from '../runtime/workflow-history.js';
import { workflowProcessManager } from '../runtime/workflow-process-manager.js';
import { AffinityHints, shareLoaderOf } from '../share-affinity/affinity-hints.js';
import type { Placement } from './placement.port.js';
import {
  extendCheckOutcome,
  placementOutcome,
  shareSchedulingWorkflow,
  type ShareSchedulingOutput,
} from './share-scheduling.workflow.js';

/**
 * The share scheduling workflow's executor: the scheduler answers its questions, and the
 * answers are recorded on the share's stream under ids derived from the causing event.
 */
export const shareSchedulingProcessManager = (
  commands: CommandHandler,
  placement: Placement,
  clock: () => string = () => new Date().toISOString(),
  affinity: AffinityHints = new AffinityHints(shareLoaderOf(commands)),
): ProcessManager => {
  const record = (cause: Decoded<ShareEvent>, command: ShareCommand, purpose: string) =>
    commands.handle(
      shareDecider,
      cause.streamId,
      command,
      reactionContext(cause, purpose, 'scheduler'),
      { retryOnConflict: 5 },
    );

  const dispatch = async (output: ShareSchedulingOutput, cause: Decoded<ShareEvent>) => {
    switch (output.type) {
      case 'ConsumePoolCapacity':
        placement.consume(output.host, output.key, output.sizeGiB, output.placedAt);
        return;
      case 'PlaceShareInstance': {
        const { request, attemptedHosts, hints } = output;
        const decision = placement.place(request, attemptedHosts, await affinity.resolve(hints));
        await record(cause, placementOutcome(request.instanceId, decision, clock()), 'schedule');
        return;
      }
      case 'CheckExtendCapacity': {
        const decision = placement.checkExtend(output.check);
        await record(cause, extendCheckOutcome(output, decision, clock()), 'extend-check');
        return;
      }
    }
  };

  return workflowProcessManager(shareSchedulingWorkflow, {
    decode: (recorded) => shareEvents.decode(recorded),
    load: streamNow(commands, shareSchedulingWorkflow),
    dispatch,
  });
};
