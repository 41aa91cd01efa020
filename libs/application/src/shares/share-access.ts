import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accessRuleMetadataNotFound, badRequest, type AllowAccessDto } from '#hawser/api-contracts';
import type { ShareCommand } from '#hawser/domain';
import type { AccessRuleDocument } from '#hawser/projections';
import { timeOrderedId } from '../time-ordered-id.js';
import { atLeast, type Requester } from '../requester.js';
import { ShareCommandHandler } from './share-changes.js';

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
export class AllowAccessHandler
  extends ShareCommandHandler
  implements ICommandHandler<AllowAccess, AccessRuleDocument>
{
  async execute({ shareId, request, requester }: AllowAccess): Promise<AccessRuleDocument> {
    const version = requester.version;
    const accessId = timeOrderedId();
    const share = await this.change(shareId, requester, () => {
      if (request.access_type === 'cephx' && !atLeast(version, '2.13')) {
        throw badRequest('Only "ip", "user" or "cert" access types are supported before 2.13.');
      }
      return {
        type: 'AllowAccess',
        accessId,
        accessType: request.access_type,
        accessTo: request.access_to,
        accessLevel: request.access_level ?? 'rw',
        metadata: atLeast(version, '2.45') ? (request.metadata ?? {}) : {},
        ipv6: atLeast(version, '2.38'),
        now: now(),
      };
    });
    return this.shares.accessRuleOf(share, accessId);
  }
}

@CommandHandler(DenyAccess)
export class DenyAccessHandler
  extends ShareCommandHandler
  implements ICommandHandler<DenyAccess, void>
{
  async execute({ shareId, accessId, requester }: DenyAccess): Promise<void> {
    await this.change(shareId, requester, () => ({ type: 'DenyAccess', accessId, now: now() }));
  }
}

/** The rule (404 unless on a share the requester may see), then one command on its share. */
abstract class AccessRuleCommandHandler extends ShareCommandHandler {
  protected async changeRule(
    accessId: string,
    requester: Requester,
    commandOf: (rule: AccessRuleDocument) => ShareCommand,
  ): Promise<AccessRuleDocument> {
    const rule = await this.shares.findAccessRule(accessId, requester.caller);
    await this.changes.run(rule.share_id, commandOf(rule), requester.commandContext());
    return rule;
  }
}

@CommandHandler(SetAccessRuleMetadata)
export class SetAccessRuleMetadataHandler
  extends AccessRuleCommandHandler
  implements ICommandHandler<SetAccessRuleMetadata, Record<string, string>>
{
  async execute({ accessId, set, requester }: SetAccessRuleMetadata) {
    const rule = await this.changeRule(accessId, requester, (found) => ({
      type: 'ChangeAccessRuleMetadata',
      accessId: found.id,
      set,
      unset: [],
      now: now(),
    }));
    return (await this.shares.findAccessRule(rule.id, requester.caller)).metadata;
  }
}

@CommandHandler(UnsetAccessRuleMetadata)
export class UnsetAccessRuleMetadataHandler
  extends AccessRuleCommandHandler
  implements ICommandHandler<UnsetAccessRuleMetadata, void>
{
  async execute({ accessId, key, requester }: UnsetAccessRuleMetadata): Promise<void> {
    await this.changeRule(accessId, requester, (rule) => {
      if (!Object.hasOwn(rule.metadata, key)) throw accessRuleMetadataNotFound();
      return {
        type: 'ChangeAccessRuleMetadata',
        accessId: rule.id,
        set: {},
        unset: [key],
        now: now(),
      };
    });
  }
}

const now = () => new Date().toISOString();
