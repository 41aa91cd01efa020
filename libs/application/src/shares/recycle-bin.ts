import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Requester } from '../requester.js';
import { USE_CASE_SETTINGS, type UseCaseSettings } from '../use-case-settings.js';
import { ShareReads } from './share-reads.js';
import { ShareChanges, ShareCommandHandler } from './share-changes.js';

/** The `soft_delete` action (2.69): the share goes to the recycle bin for the retention time. */
export class SoftDeleteShare extends Command<void> {
  constructor(
    readonly shareId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** The `restore` action (2.69): answers whether the share was in the recycle bin. */
export class RestoreShare extends Command<boolean> {
  constructor(
    readonly shareId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

@CommandHandler(SoftDeleteShare)
export class SoftDeleteShareHandler
  extends ShareCommandHandler
  implements ICommandHandler<SoftDeleteShare, void>
{
  constructor(
    shares: ShareReads,
    changes: ShareChanges,
    @Inject(USE_CASE_SETTINGS) private readonly settings: UseCaseSettings,
  ) {
    super(shares, changes);
  }

  async execute({ shareId, requester }: SoftDeleteShare): Promise<void> {
    await this.change(shareId, requester, () => {
      const now = new Date();
      const retentionMs = this.settings.softDeleteRetentionS * 1000;
      return {
        type: 'SoftDeleteShare',
        scheduledToBeDeletedAt: new Date(now.getTime() + retentionMs).toISOString(),
        now: now.toISOString(),
      };
    });
  }
}

@CommandHandler(RestoreShare)
export class RestoreShareHandler
  extends ShareCommandHandler
  implements ICommandHandler<RestoreShare, boolean>
{
  async execute({ shareId, requester }: RestoreShare): Promise<boolean> {
    const share = await this.change(shareId, requester, () => ({
      type: 'RestoreShare',
      now: new Date().toISOString(),
    }));
    return share.is_soft_deleted;
  }
}
