import type { CommandContext, CommandHandler } from '#hawser/application';
import { quotaDecider, quotaStream, type QuotaCommand, type ShareEvent } from '#hawser/domain';
import type { Decoded, EventStore, RecordedEvent } from '#hawser/eventstore';
import { shareEvents } from '../../../../eventstore/decoders.js';
import type { ProcessManager } from '../runtime/process-manager.js';
import { reactionContext } from '../runtime/reaction-context.js';
import type { Unstamped } from '../runtime/workflow.js';
import { historyUpTo } from '../runtime/workflow-history.js';
import { workflowProcessManager } from '../runtime/workflow-process-manager.js';
import { quotaReleaseWorkflow, type QuotaReleaseOutput } from './quota-release.workflow.js';

/**
 * The quota release workflow's executor: each quota command goes to the project's quota
 * stream under an id derived from the causing event.
 */
export const quotaReleaseProcessManager = (
  events: EventStore,
  commands: CommandHandler,
  clock: () => string = () => new Date().toISOString(),
): ProcessManager => {
  const onQuota = (command: Unstamped<QuotaCommand>, ctx: CommandContext) =>
    commands.handle(
      quotaDecider,
      quotaStream(command.projectId),
      { ...command, now: clock() },
      ctx,
      { retryOnConflict: 50 },
    );

  const dispatch = async (output: QuotaReleaseOutput, cause: Decoded<ShareEvent>) => {
    await onQuota(output, contextOf(cause, output.projectId));
  };

  const decode = (recorded: RecordedEvent) => shareEvents.decode(recorded);
  return workflowProcessManager(quotaReleaseWorkflow, {
    decode,
    load: historyUpTo(events, decode, quotaReleaseWorkflow),
    dispatch,
  });
};

const contextOf = (event: Decoded<ShareEvent>, projectId: string): CommandContext => ({
  ...reactionContext(event, 'quota', 'quota'),
  projectId,
});
