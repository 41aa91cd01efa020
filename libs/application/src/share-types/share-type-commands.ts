import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  badRequest,
  ManilaHttpError,
  notFoundError,
  toBoolean,
  type CreateShareTypeDto,
} from '#hawser/api-contracts';
import { shareTypeDecider, shareTypeStream, type ShareTypeCommand } from '#hawser/domain';
import { SHARE_TYPES, SHARES, type ShareTypeDocument } from '#hawser/projections';
import {
  DOCUMENT_STORE,
  READ_YOUR_WRITES,
  type DocumentStore,
  type ReadYourWrites,
} from '#hawser/read-models';
import { timeOrderedId } from '../time-ordered-id.js';
import { CommandHandler as Commands, type CommandContext } from '../command-handler.js';
import type { Requester } from '../requester.js';
import { ShareTypeReads } from './share-type-reads.js';

const now = () => new Date().toISOString();

/** POST /types (admin): a new type; a name in use is a 409. */
export class CreateShareType extends Command<ShareTypeDocument> {
  constructor(
    readonly request: CreateShareTypeDto,
    /** Before 2.24 a new type supports snapshots unless it says otherwise. */
    readonly snapshotSupportByDefault: boolean,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** PUT /types/{id} (2.50, admin): name, description, visibility, as the body gave them. */
export class UpdateShareType extends Command<ShareTypeDocument> {
  constructor(
    readonly shareTypeId: string,
    readonly request: Record<string, unknown>,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** DELETE /types/{id} (admin): refused while shares of the type exist. */
export class DeleteShareType extends Command<void> {
  constructor(
    readonly shareTypeId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** The addProjectAccess / removeProjectAccess actions (admin) on a private type. */
export class ChangeShareTypeAccess extends Command<void> {
  constructor(
    readonly shareTypeId: string,
    readonly projectId: string,
    readonly grant: boolean,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** POST /types/{id}/extra_specs (admin): sets the given specs. */
export class SetShareTypeExtraSpecs extends Command<void> {
  constructor(
    readonly shareTypeId: string,
    readonly extraSpecs: Record<string, string>,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** DELETE /types/{id}/extra_specs/{key} (admin): an unknown key is a 404. */
export class UnsetShareTypeExtraSpec extends Command<void> {
  constructor(
    readonly shareTypeId: string,
    readonly key: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** One command on a type's stream, then its document once the read model has it. */
@Injectable()
export class ShareTypeChanges {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly commands: Commands,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
  ) {}

  async run(
    id: string,
    command: ShareTypeCommand,
    ctx: CommandContext,
  ): Promise<ShareTypeDocument | undefined> {
    const result = await this.commands.handle(shareTypeDecider, shareTypeStream(id), command, ctx);
    await this.readYourWrites.waitFor(result.position);
    return this.documents.get<ShareTypeDocument>(SHARE_TYPES, id);
  }
}

/** A spec the type has itself: `constructor` or `__proto__` are keys like any other, and absent. */
export const ownSpec = (doc: ShareTypeDocument, key: string): string | undefined =>
  Object.hasOwn(doc.extra_specs, key) ? doc.extra_specs[key] : undefined;

@CommandHandler(CreateShareType)
export class CreateShareTypeHandler implements ICommandHandler<CreateShareType, ShareTypeDocument> {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly changes: ShareTypeChanges,
  ) {}

  async execute({ request: dto, snapshotSupportByDefault, requester }: CreateShareType) {
    const existing = await this.documents.find<ShareTypeDocument>(SHARE_TYPES, { name: dto.name });
    if (existing.length > 0) {
      throw new ManilaHttpError(409, `Share Type ${dto.name} already exists.`);
    }
    const extraSpecs = { ...(dto.extra_specs ?? {}) };
    if (snapshotSupportByDefault && extraSpecs.snapshot_support === undefined) {
      extraSpecs.snapshot_support = 'True';
    }
    const isPublic =
      toBoolean(
        dto['share_type_access:is_public'] ?? dto['os-share-type-access:is_public'] ?? true,
      ) ?? true;
    const id = timeOrderedId();
    const created = await this.changes.run(
      id,
      {
        type: 'CreateShareType',
        shareTypeId: id,
        name: dto.name,
        description: dto.description ?? null,
        extraSpecs,
        isPublic,
        now: now(),
      },
      requester.commandContext(),
    );
    return created as ShareTypeDocument;
  }
}

/** The base of the handlers that run one command on a type the requester may see. */
@Injectable()
abstract class ShareTypeCommandHandler {
  constructor(
    private readonly types: ShareTypeReads,
    private readonly changes: ShareTypeChanges,
  ) {}

  /** The type (404 unless visible), then `commandOf(type)`; its document afterwards. */
  protected async change(
    shareTypeId: string,
    requester: Requester,
    commandOf: (type: ShareTypeDocument) => ShareTypeCommand | Promise<ShareTypeCommand>,
  ): Promise<ShareTypeDocument | undefined> {
    const doc = await this.types.find(shareTypeId, requester.caller);
    return this.changes.run(doc.id, await commandOf(doc), requester.commandContext());
  }
}

@CommandHandler(UpdateShareType)
export class UpdateShareTypeHandler
  extends ShareTypeCommandHandler
  implements ICommandHandler<UpdateShareType, ShareTypeDocument>
{
  @Inject(DOCUMENT_STORE) private readonly documents!: DocumentStore;

  async execute({ shareTypeId, request: part, requester }: UpdateShareType) {
    const updated = await this.change(shareTypeId, requester, async (current) => {
      const isPublic = part['share_type_access:is_public'];
      if (isPublic !== undefined && toBoolean(isPublic) === undefined) {
        throw badRequest('share_type_access:is_public must be a boolean.');
      }
      if (part.name !== undefined && typeof part.name !== 'string') {
        throw badRequest('name must be a string.');
      }
      if (
        part.description !== undefined &&
        part.description !== null &&
        typeof part.description !== 'string'
      ) {
        throw badRequest('description must be a string.');
      }
      if (typeof part.name === 'string' && part.name !== current.name) {
        const named = await this.documents.find<ShareTypeDocument>(SHARE_TYPES, {
          name: part.name,
        });
        if (named.some((type) => type.id !== current.id)) {
          throw new ManilaHttpError(409, `Share Type ${part.name} already exists.`);
        }
      }
      // Manila stores an empty description as none: that is how a description is unset.
      const description = part.description === '' ? null : part.description;
      return {
        type: 'UpdateShareType',
        ...(part.name !== undefined && { name: part.name as string }),
        ...(description !== undefined && { description: description as string | null }),
        ...(isPublic !== undefined && { isPublic: toBoolean(isPublic) as boolean }),
        now: now(),
      };
    });
    return updated as ShareTypeDocument;
  }
}

@CommandHandler(DeleteShareType)
export class DeleteShareTypeHandler
  extends ShareTypeCommandHandler
  implements ICommandHandler<DeleteShareType, void>
{
  @Inject(DOCUMENT_STORE) private readonly documents!: DocumentStore;

  async execute({ shareTypeId, requester }: DeleteShareType): Promise<void> {
    await this.change(shareTypeId, requester, async (doc) => {
      if ((await this.documents.count(SHARES, { share_type_id: doc.id })) > 0) {
        throw badRequest(
          `Share Type ${doc.id} deletion is not allowed with shares present with the type.`,
        );
      }
      return { type: 'DeleteShareType', now: now() };
    });
  }
}

@CommandHandler(ChangeShareTypeAccess)
export class ChangeShareTypeAccessHandler
  extends ShareTypeCommandHandler
  implements ICommandHandler<ChangeShareTypeAccess, void>
{
  async execute({ shareTypeId, projectId, grant, requester }: ChangeShareTypeAccess) {
    await this.change(shareTypeId, requester, () => ({
      type: grant ? 'AddShareTypeAccess' : 'RemoveShareTypeAccess',
      projectId,
    }));
  }
}

@CommandHandler(SetShareTypeExtraSpecs)
export class SetShareTypeExtraSpecsHandler
  extends ShareTypeCommandHandler
  implements ICommandHandler<SetShareTypeExtraSpecs, void>
{
  async execute({ shareTypeId, extraSpecs, requester }: SetShareTypeExtraSpecs) {
    await this.change(shareTypeId, requester, () => ({
      type: 'SetShareTypeExtraSpecs',
      extraSpecs,
      now: now(),
    }));
  }
}

@CommandHandler(UnsetShareTypeExtraSpec)
export class UnsetShareTypeExtraSpecHandler
  extends ShareTypeCommandHandler
  implements ICommandHandler<UnsetShareTypeExtraSpec, void>
{
  async execute({ shareTypeId, key, requester }: UnsetShareTypeExtraSpec) {
    await this.change(shareTypeId, requester, (doc) => {
      if (ownSpec(doc, key) === undefined) {
        throw notFoundError(`Share Type ${doc.id} has no extra specs with key ${key}.`);
      }
      return { type: 'UnsetShareTypeExtraSpec', key, now: now() };
    });
  }
}
