import { randomUUID } from 'node:crypto';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { badRequest, notFoundError, type AllowAccessDto } from '#hawser/api-contracts';
import type { AccessRuleDocument } from '#hawser/projections';
import { atLeast, type Requester } from '../requester.js';
import { ShareChanges } from './share-changes.js';
import { ShareReads } from './share-reads.js';

/** allow_access (reference 3.4): the share's decider checks values, duplicates and status. */
export class AllowAccess extends Command<AccessRuleDocument> {
  constructor(
    readonly shareId: string,
    readonly request: AllowAccessDto,
    readonly requester: Requester,
  ) {
    super();
  }
}

export class DenyAccess extends Command<void> {
  constructor(
    readonly shareId: string,
    readonly accessId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** PUT /share-access-rules/{id}/metadata (2.45): merges keys, answers the whole map. */
export class SetAccessRuleMetadata extends Command<Record<string, string>> {
  constructor(
    readonly accessId: string,
    readonly set: Record<string, string>,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** DELETE /share-access-rules/{id}/metadata/{key} (2.45): an unknown key is a 404. */
export class UnsetAccessRuleMetadata extends Command<void> {
  constructor(
    readonly accessId: string,
    readonly key: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

@CommandHandler(AllowAccess)
export class AllowAccessHandler implements ICommandHandler<AllowAccess, AccessRuleDocument> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ shareId, request, requester }: AllowAccess): Promise<AccessRuleDocument> {
    const share = await this.shares.find(shareId, requester.caller);
    const version = requester.version;
    if (request.access_type === 'cephx' && !atLeast(version, '2.13')) {
      throw badRequest('Only "ip", "user" or "cert" access types are supported before 2.13.');
    }
    const accessId = randomUUID();
    await this.changes.run(
      share.id,
      {
        type: 'AllowAccess',
        accessId,
        accessType: request.access_type,
        accessTo: request.access_to,
        accessLevel: request.access_level ?? 'rw',
        metadata: atLeast(version, '2.45') ? (request.metadata ?? {}) : {},
        ipv6: atLeast(version, '2.38'),
        now: new Date().toISOString(),
      },
      requester.commandContext(),
    );
    return this.shares.findAccessRule(accessId, requester.caller);
  }
}

@CommandHandler(DenyAccess)
export class DenyAccessHandler implements ICommandHandler<DenyAccess, void> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ shareId, accessId, requester }: DenyAccess): Promise<void> {
    const share = await this.shares.find(shareId, requester.caller);
    await this.changes.run(
      share.id,
      { type: 'DenyAccess', accessId, now: new Date().toISOString() },
      requester.commandContext(),
    );
  }
}

@CommandHandler(SetAccessRuleMetadata)
export class SetAccessRuleMetadataHandler implements ICommandHandler<
  SetAccessRuleMetadata,
  Record<string, string>
> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ accessId, set, requester }: SetAccessRuleMetadata) {
    const rule = await this.shares.findAccessRule(accessId, requester.caller);
    await this.changes.run(
      rule.share_id,
      { type: 'ChangeAccessRuleMetadata', accessId: rule.id, set, unset: [], now: now() },
      requester.commandContext(),
    );
    return (await this.shares.findAccessRule(rule.id, requester.caller)).metadata;
  }
}

@CommandHandler(UnsetAccessRuleMetadata)
export class UnsetAccessRuleMetadataHandler implements ICommandHandler<
  UnsetAccessRuleMetadata,
  void
> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ accessId, key, requester }: UnsetAccessRuleMetadata): Promise<void> {
    const rule = await this.shares.findAccessRule(accessId, requester.caller);
    if (!Object.hasOwn(rule.metadata, key)) throw notFoundError('Metadata item was not found');
    await this.changes.run(
      rule.share_id,
      { type: 'ChangeAccessRuleMetadata', accessId: rule.id, set: {}, unset: [key], now: now() },
      requester.commandContext(),
    );
  }
}

const now = () => new Date().toISOString();
