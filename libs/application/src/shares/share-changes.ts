import { Inject, Injectable } from '@nestjs/common';
import {
  shareDecider,
  shareStream,
  type Decider,
  type ShareCommand,
  type ShareEvent,
  type ShareState,
} from '#hawser/domain';
import { READ_YOUR_WRITES, type ReadYourWrites } from '#hawser/read-models';
import {
  CommandHandler,
  type CommandContext,
  type CommandResult,
  type HandleOptions,
} from '../command-handler.js';

/**
 * One command on a share's stream through the command handler (load, decide, append at the
 * decided revision), then a wait until the read models show it, so the answer reads its write.
 */
@Injectable()
export class ShareChanges {
  constructor(
    private readonly commands: CommandHandler,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
  ) {}

  async run(
    shareId: string,
    command: ShareCommand,
    ctx: CommandContext,
    decider: Decider<ShareState, ShareCommand, ShareEvent> = shareDecider,
    options: HandleOptions = {},
  ): Promise<CommandResult<ShareState, ShareEvent>> {
    const result = await this.record(shareId, command, ctx, decider, options);
    await this.readYourWrites.waitFor(result.position);
    return result;
  }

  /** The command recorded, not yet waited for (a request that reserved first marks it). */
  record(
    shareId: string,
    command: ShareCommand,
    ctx: CommandContext,
    decider: Decider<ShareState, ShareCommand, ShareEvent> = shareDecider,
    options: HandleOptions = {},
  ): Promise<CommandResult<ShareState, ShareEvent>> {
    return this.commands.handle(decider, shareStream(shareId), command, ctx, options);
  }

  /** Waits until the read models show a recorded command. */
  shown(result: CommandResult<ShareState, ShareEvent>): Promise<void> {
    return this.readYourWrites.waitFor(result.position);
  }

  /** The events `command` would bring, or its refusal, appending nothing (validate first). */
  decideOnly(shareId: string, command: ShareCommand): Promise<readonly ShareEvent[]> {
    return this.commands.decideOnly(shareDecider, shareStream(shareId), command);
  }
}
