import { Inject, Injectable } from '@nestjs/common';
import {
  decidedAsCounted,
  shareDecider,
  type CountedRequest,
  shareStream,
  type Decider,
  type ShareCommand,
  type ShareEvent,
  type ShareState,
} from '#hawser/domain';
import type { ShareDocument } from '#hawser/projections';
import { READ_YOUR_WRITES, type ReadYourWrites } from '#hawser/read-models';
import {
  CommandHandler,
  type CommandContext,
  type CommandResult,
  type HandleOptions,
} from '../command-handler.js';
import type { Requester } from '../requester.js';
import { ShareReads } from './share-reads.js';

/** How often a share request is decided again after another writer appended to the share. */
export const SHARE_CONFLICT_RETRIES = 20;

export interface ShareCommandOptions extends HandleOptions {
  /** The share's decider, or one wrapping it (`requestHolding` a quota reservation). */
  readonly decider?: Decider<ShareState, ShareCommand, ShareEvent>;
  /**
   * What the request counted against the quota before it was decided: a decision on a revision
   * that needs other counts is refused (409) instead of recorded (`decidedAsCounted`).
   */
  readonly counted?: CountedRequest;
}

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
    options: ShareCommandOptions = {},
  ): Promise<CommandResult<ShareState, ShareEvent>> {
    const result = await this.record(shareId, command, ctx, options);
    await this.readYourWrites.waitFor(result.position);
    return result;
  }

  /**
   * The command recorded, not yet waited for (a request that reserved first marks it). Another
   * writer's append in between decides it again on the newer revision, as Manila would take
   * both requests; for a request that counted quota (`counted`), a decision that needs other
   * counts is refused instead.
   */
  record(
    shareId: string,
    command: ShareCommand,
    ctx: CommandContext,
    {
      decider = shareDecider,
      counted,
      retryOnConflict = SHARE_CONFLICT_RETRIES,
      ...handling
    }: ShareCommandOptions = {},
  ): Promise<CommandResult<ShareState, ShareEvent>> {
    const deciding = counted ? decidedAsCounted(counted, decider) : decider;
    return this.commands.handle(deciding, shareStream(shareId), command, ctx, {
      ...handling,
      retryOnConflict,
    });
  }

  /** Waits until the read models show a recorded command. */
  shown(result: CommandResult<ShareState, ShareEvent>): Promise<void> {
    return this.readYourWrites.waitFor(result.position);
  }

  /**
   * The events `command` would bring, or its refusal, appending nothing (validate first).
   * `newStream`: the share's id was just made up, so its stream is not read (see HandleOptions).
   */
  decideOnly(
    shareId: string,
    command: ShareCommand,
    options: Pick<HandleOptions, 'newStream'> = {},
  ): Promise<readonly ShareEvent[]> {
    return this.commands.decideOnly(shareDecider, shareStream(shareId), command, options);
  }
}

/** The base of the handlers that run one command on a share the requester may see. */
@Injectable()
export abstract class ShareCommandHandler {
  constructor(
    protected readonly shares: ShareReads,
    protected readonly changes: ShareChanges,
  ) {}

  /** The share (404 unless the requester may see it), then `commandOf(share)` on its stream. */
  protected async change(
    shareId: string,
    requester: Requester,
    commandOf: (share: ShareDocument) => ShareCommand,
  ): Promise<ShareDocument> {
    const share = await this.shares.findFor(shareId, requester);
    await this.changes.run(share.id, commandOf(share), requester.commandContext());
    return share;
  }
}
