import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { forbiddenError, metadataItemNotFound } from '#hawser/api-contracts';
import { isAffinityKey, type ShareStatus } from '#hawser/domain';
import type { ShareDocument } from '#hawser/projections';
import type { Requester } from '../requester.js';
import { ShareCommandHandler } from './share-changes.js';

const now = () => new Date().toISOString();
const ADMIN_METADATA_RULE = 'share:update_admin_only_metadata';

export interface ShareUpdate {
  readonly name?: string | null;
  readonly description?: string | null;
  readonly isPublic?: boolean;
}

/** PUT /shares/{id}: name, description, visibility (a public share needs its own rule). */
export class UpdateShare extends Command<ShareDocument> {
  constructor(
    readonly shareId: string,
    readonly update: ShareUpdate,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** DELETE /shares/{id}, or the `force_delete` action (whatever the back end says). */
export class DeleteShare extends Command<void> {
  constructor(
    readonly shareId: string,
    readonly force: boolean,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** The `reset_status` action: an admin sets the share's status. */
export class ResetShareStatus extends Command<void> {
  constructor(
    readonly shareId: string,
    readonly status: ShareStatus,
    readonly requester: Requester,
  ) {
    super();
  }
}

/**
 * POST (merge) or PUT (replace) /shares/{id}/metadata; answers the share's metadata. Replacing
 * keeps admin-only keys for those who may not change them (reference 3.4.4).
 */
export class SetShareMetadata extends Command<Record<string, string>> {
  constructor(
    readonly shareId: string,
    readonly set: Record<string, string>,
    readonly replace: boolean,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** DELETE /shares/{id}/metadata/{key}: an unknown key is a 404. */
export class UnsetShareMetadata extends Command<void> {
  constructor(
    readonly shareId: string,
    readonly key: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

@CommandHandler(UpdateShare)
export class UpdateShareHandler
  extends ShareCommandHandler
  implements ICommandHandler<UpdateShare, ShareDocument>
{
  async execute({ shareId, update, requester }: UpdateShare): Promise<ShareDocument> {
    const share = await this.change(shareId, requester, () => {
      if (update.isPublic) requester.policy.enforce('share:set_public_share');
      return {
        type: 'UpdateShare',
        ...(update.name !== undefined && { name: update.name }),
        ...(update.description !== undefined && { description: update.description }),
        ...(update.isPublic !== undefined && { isPublic: update.isPublic }),
        now: now(),
      };
    });
    return this.shares.find(share.id, requester.caller);
  }
}

@CommandHandler(DeleteShare)
export class DeleteShareHandler
  extends ShareCommandHandler
  implements ICommandHandler<DeleteShare, void>
{
  async execute({ shareId, force, requester }: DeleteShare): Promise<void> {
    await this.change(shareId, requester, () => ({ type: 'DeleteShare', force, now: now() }));
  }
}

@CommandHandler(ResetShareStatus)
export class ResetShareStatusHandler
  extends ShareCommandHandler
  implements ICommandHandler<ResetShareStatus, void>
{
  async execute({ shareId, status, requester }: ResetShareStatus): Promise<void> {
    await this.change(shareId, requester, () => ({
      type: 'ResetShareStatus',
      status,
      now: now(),
    }));
  }
}

@CommandHandler(SetShareMetadata)
export class SetShareMetadataHandler
  extends ShareCommandHandler
  implements ICommandHandler<SetShareMetadata, Record<string, string>>
{
  async execute({ shareId, set, replace, requester }: SetShareMetadata) {
    const share = await this.change(shareId, requester, (current) => {
      const mayChangeAdminKeys = requester.policy.allows(ADMIN_METADATA_RULE);
      if (!mayChangeAdminKeys && Object.keys(set).some(isAffinityKey)) {
        throw forbiddenError('Cannot set or update admin only metadata.');
      }
      const unset = replace
        ? Object.keys(current.metadata).filter(
            (k) => !Object.hasOwn(set, k) && (mayChangeAdminKeys || !isAffinityKey(k)),
          )
        : [];
      return { type: 'ChangeShareMetadata', set, unset, now: now() };
    });
    return (await this.shares.find(share.id, requester.caller)).metadata;
  }
}

@CommandHandler(UnsetShareMetadata)
export class UnsetShareMetadataHandler
  extends ShareCommandHandler
  implements ICommandHandler<UnsetShareMetadata, void>
{
  async execute({ shareId, key, requester }: UnsetShareMetadata): Promise<void> {
    await this.change(shareId, requester, (share) => {
      if (isAffinityKey(key) && !requester.policy.allows(ADMIN_METADATA_RULE)) {
        throw forbiddenError('Cannot set or update admin only metadata.');
      }
      if (!Object.hasOwn(share.metadata, key)) throw metadataItemNotFound();
      return { type: 'ChangeShareMetadata', set: {}, unset: [key], now: now() };
    });
  }
}
