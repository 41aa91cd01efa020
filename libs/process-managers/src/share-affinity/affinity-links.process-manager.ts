import type { CommandHandler } from '#hawser/application';
import { DomainError, shareDecider, shareStream, type ShareEvent } from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import { shareEvents } from '../../../../eventstore/decoders.js';
import type { ProcessManager } from '../runtime/process-manager.js';
import { reactionContext } from '../runtime/reaction-context.js';
import { streamNow } from '../runtime/workflow-history.js';
import { workflowProcessManager } from '../runtime/workflow-process-manager.js';
import { affinityLinksWorkflow, type AffinityLinkOutput } from './affinity-links.workflow.js';

/**
 * The affinity links workflow's executor: each link or unlink goes to the stream of the share
 * it concerns, under an id derived from the causing event and that share; one whose share is
 * gone sends its `ifGone` instead.
 */
export const affinityLinksProcessManager = (
  commands: CommandHandler,
  clock: () => string = () => new Date().toISOString(),
): ProcessManager => {
  /** Runs the output's command; false when its share does not exist (any more). */
  const applied = async (output: AffinityLinkOutput, cause: Decoded<ShareEvent>) => {
    try {
      await commands.handle(
        shareDecider,
        shareStream(output.shareId),
        { ...output.command, now: clock() },
        reactionContext(cause, output.purpose, 'affinity'),
        { retryOnConflict: 50 },
      );
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return false;
      throw error;
    }
  };

  return workflowProcessManager(affinityLinksWorkflow, {
    decode: (recorded) => shareEvents.decode(recorded),
    load: streamNow(commands, affinityLinksWorkflow),
    async dispatch(output, cause) {
      if (!(await applied(output, cause)) && output.ifGone) await applied(output.ifGone, cause);
    },
  });
};
