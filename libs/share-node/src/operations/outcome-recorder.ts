import type { CommandHandler } from '#hawser/application';
import { derivedId, shareDecider, shareStream, type ShareCommand } from '#hawser/domain';
import { nodeCommandContext } from './node-outcome.js';

interface UnrecordedOutcome {
  readonly shareId: string;
  readonly causationId: string;
  readonly command: ShareCommand;
}

/**
 * Appends the outcome of a claimed driver operation to the share's stream, remembering it by
 * the claim's command id until the append succeeds. When the append fails after the driver
 * acted (a full disk), the reaction throws and is retried by the process-manager runner; the
 * retry finds the claim already taken and records the remembered outcome instead of calling the
 * driver again. After a restart nothing is remembered: start-up recovery settles the claim.
 */
export class OutcomeRecorder {
  private readonly unrecorded = new Map<string, UnrecordedOutcome>();

  constructor(private readonly commands: CommandHandler) {}

  /** Records `command`, the outcome of the operation claimed by `commandId`. */
  async record(
    shareId: string,
    commandId: string,
    causationId: string,
    command: ShareCommand,
  ): Promise<void> {
    this.unrecorded.set(commandId, { shareId, causationId, command });
    await this.commands.handle(
      shareDecider,
      shareStream(shareId),
      command,
      nodeCommandContext(derivedId(commandId, 'outcome'), causationId),
      { retryOnConflict: 5 },
    );
    this.unrecorded.delete(commandId);
  }

  /** Records the outcome of `commandId` a failed append left unrecorded; whether there was one. */
  async recordUnrecorded(commandId: string): Promise<boolean> {
    const outcome = this.unrecorded.get(commandId);
    if (!outcome) return false;
    await this.record(outcome.shareId, commandId, outcome.causationId, outcome.command);
    return true;
  }
}
