import type { CommandHandler } from '#hawser/application';
import { shareDecider, type ShareCommand, type ShareEvent } from '#hawser/domain';
import type { Decoded } from '#hawser/eventstore';
import { shareEvents } from '../../../../eventstore/decoders.js';
import type { ProcessManager } from '../runtime/process-manager.js';
import { reactionContext } from '../runtime/reaction-context.js';
import { streamNow } from '../runtime/workflow-history.js';
import { workflowProcessManager } from '../runtime/workflow-process-manager.js';
import type { Placement } from '../share-scheduling/placement.port.js';
import { shareMigrationWorkflow, type ShareMigrationOutput } from './share-migration.workflow.js';

/**
 * The migration workflow's executor, next to the scheduler: a destination that passes the
 * filters is accepted and its pool debited; one that does not fails the migration with the
 * scheduler's message (migration_error, the source untouched).
 */
export const shareMigrationProcessManager = (
  commands: CommandHandler,
  placement: Placement,
  clock: () => string = () => new Date().toISOString(),
): ProcessManager => {
  /** A migration step on the causing share's stream, its id derived from the cause. */
  const record = (cause: Decoded<ShareEvent>, command: ShareCommand, purpose: string) => {
    const context = reactionContext(cause, purpose, 'scheduler');
    return commands.handle(shareDecider, cause.streamId, command, context, { retryOnConflict: 5 });
  };

  const dispatch = async (output: ShareMigrationOutput, cause: Decoded<ShareEvent>) => {
    switch (output.type) {
      case 'CheckMigrationHost': {
        const { check } = output;
        const decision = placement.checkMigrationHost(check);
        if (!decision.passes) {
          const command = { type: 'FailShareMigration' as const, message: decision.message };
          await record(cause, { ...command, now: clock() }, 'migration-host');
          return;
        }
        const result = await record(
          cause,
          { type: 'AcceptShareMigrationHost', now: clock() },
          'migration-host',
        );
        if (result.events.length > 0) {
          placement.consume(check.host, check.instanceId, check.size, Date.now());
        }
        return;
      }
      case 'RecordMigrationStep':
        await record(cause, { ...output.command, now: clock() } as ShareCommand, output.purpose);
        return;
    }
  };

  return workflowProcessManager(shareMigrationWorkflow, {
    decode: (recorded) => shareEvents.decode(recorded),
    load: streamNow(commands, shareMigrationWorkflow),
    dispatch,
  });
};
