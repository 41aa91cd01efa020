import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { forbiddenError, notFoundError } from '#hawser/api-contracts';
import { isAffinityKey, type ShareStatus } from '#hawser/domain';
import type { ShareDocument } from '#hawser/projections';
import type { Requester } from '../requester.js';
import { ShareChanges } from './share-changes.js';
import { ShareReads } from './share-reads.js';

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
export class UpdateShareHandler implements ICommandHandler<UpdateShare, ShareDocument> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ shareId, update, requester }: UpdateShare): Promise<ShareDocument> {
    const share = await this.shares.find(shareId, requester.caller);
    if (update.isPublic) requester.policy.enforce('share:set_public_share');
    await this.changes.run(
      share.id,
      {
        type: 'UpdateShare',
        ...(update.name !== undefined && { name: update.name }),
        ...(update.description !== undefined && { description: update.description }),
        ...(update.isPublic !== undefined && { isPublic: update.isPublic }),
        now: now(),
      },
      requester.commandContext(),
    );
    return this.shares.find(share.id, requester.caller);
  }
}

@CommandHandler(DeleteShare)
export class DeleteShareHandler implements ICommandHandler<DeleteShare, void> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ shareId, force, requester }: DeleteShare): Promise<void> {
    const share = await this.shares.find(shareId, requester.caller);
    await this.changes.run(
      share.id,
      { type: 'DeleteShare', force, now: now() },
      requester.commandContext(),
    );
  }
}

@CommandHandler(ResetShareStatus)
export class ResetShareStatusHandler implements ICommandHandler<ResetShareStatus, void> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ shareId, status, requester }: ResetShareStatus): Promise<void> {
    const share = await this.shares.find(shareId, requester.caller);
    await this.changes.run(
      share.id,
      { type: 'ResetShareStatus', status, now: now() },
      requester.commandContext(),
    );
  }
}

@CommandHandler(SetShareMetadata)
export class SetShareMetadataHandler implements ICommandHandler<
  SetShareMetadata,
  Record<string, string>
> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ shareId, set, replace, requester }: SetShareMetadata) {
    const share = await this.shares.find(shareId, requester.caller);
    const mayChangeAdminKeys = requester.policy.allows(ADMIN_METADATA_RULE);
    if (!mayChangeAdminKeys && Object.keys(set).some(isAffinityKey)) {
      throw forbiddenError('Cannot set or update admin only metadata.');
    }
    const unset = replace
      ? Object.keys(share.metadata).filter(
          (k) => !Object.hasOwn(set, k) && (mayChangeAdminKeys || !isAffinityKey(k)),
        )
      : [];
    await this.changes.run(
      share.id,
      { type: 'ChangeShareMetadata', set, unset, now: now() },
      requester.commandContext(),
    );
    return (await this.shares.find(share.id, requester.caller)).metadata;
  }
}

@CommandHandler(UnsetShareMetadata)
export class UnsetShareMetadataHandler implements ICommandHandler<UnsetShareMetadata, void> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ shareId, key, requester }: UnsetShareMetadata): Promise<void> {
    const share = await this.shares.find(shareId, requester.caller);
    if (isAffinityKey(key) && !requester.policy.allows(ADMIN_METADATA_RULE)) {
      throw forbiddenError('Cannot set or update admin only metadata.');
    }
    if (!Object.hasOwn(share.metadata, key)) throw notFoundError('Metadata item was not found');
    await this.changes.run(
      share.id,
      { type: 'ChangeShareMetadata', set: {}, unset: [key], now: now() },
      requester.commandContext(),
    );
  }
}
