import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler } from '#hawser/application';
import { toBoolean, type CreateShareTypeDto } from '#hawser/api-contracts';
import { shareTypeDecider, shareTypeStream, type ShareTypeCommand } from '#hawser/domain';
import { SHARE_TYPES, SHARES, type ShareTypeDocument } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import {
  DOCUMENT_STORE,
  HAWSER_CONFIG,
  READ_YOUR_WRITES,
  type HawserConfig,
  type ReadYourWrites,
} from '#hawser/platform';
import { commandContextOf } from '../http/command-context.js';
import { badRequest, ManilaHttpError, notFoundError } from '../http/manila-error.js';
import type { AuthContext, RequestContext } from '../http/request-context.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const visibleTo = (doc: ShareTypeDocument, auth: AuthContext): boolean =>
  auth.isAdmin || doc.is_public || doc.projects.includes(auth.projectId);

/** Share types: lookups with Manila's visibility rules, and the commands that change them. */
@Injectable()
export class ShareTypesService {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly commands: CommandHandler,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
    @Inject(HAWSER_CONFIG) private readonly config: HawserConfig,
  ) {}

  get defaultShareTypeName(): string | undefined {
    return this.config.defaultShareType;
  }

  /** By id or name; a private type the caller cannot see does not exist for it (404). */
  async find(idOrName: string, auth: AuthContext): Promise<ShareTypeDocument> {
    const doc =
      (UUID.test(idOrName)
        ? await this.documents.get<ShareTypeDocument>(SHARE_TYPES, idOrName)
        : undefined) ??
      (await this.documents.find<ShareTypeDocument>(SHARE_TYPES, { name: idOrName }))[0];
    if (!doc || !visibleTo(doc, auth)) {
      throw notFoundError(`Share type ${idOrName} could not be found.`);
    }
    return doc;
  }

  async findDefault(auth: AuthContext): Promise<ShareTypeDocument | undefined> {
    if (!this.config.defaultShareType) return undefined;
    return this.find(this.config.defaultShareType, auth).catch(() => undefined);
  }

  /** GET /types: `is_public` is true|false|all for admins; others see what they may use. */
  async list(auth: AuthContext, isPublic: string | undefined): Promise<ShareTypeDocument[]> {
    const all = await this.documents.find<ShareTypeDocument>(
      SHARE_TYPES,
      {},
      { sort: [['name', 1]] },
    );
    if (!auth.isAdmin) return all.filter((t) => visibleTo(t, auth));
    if (isPublic === 'all') return all;
    const wanted = toBoolean(isPublic ?? 'true');
    if (wanted === undefined) throw badRequest(`Invalid is_public filter [${isPublic}]`);
    return all.filter((t) =>
      wanted ? t.is_public || t.projects.includes(auth.projectId) : !t.is_public,
    );
  }

  async create(dto: CreateShareTypeDto, ctx: RequestContext, snapshotDefault: boolean) {
    const existing = await this.documents.find<ShareTypeDocument>(SHARE_TYPES, { name: dto.name });
    if (existing.length > 0) {
      throw new ManilaHttpError(409, `Share Type ${dto.name} already exists.`);
    }
    const extraSpecs = { ...(dto.extra_specs ?? {}) };
    // Before 2.24, a new type supports snapshots unless it says otherwise.
    if (snapshotDefault && extraSpecs.snapshot_support === undefined) {
      extraSpecs.snapshot_support = 'True';
    }
    const isPublic =
      toBoolean(
        dto['share_type_access:is_public'] ?? dto['os-share-type-access:is_public'] ?? true,
      ) ?? true;
    const id = randomUUID();
    return this.run(id, ctx, {
      type: 'CreateShareType',
      shareTypeId: id,
      name: dto.name,
      description: dto.description ?? null,
      extraSpecs,
      isPublic,
      now: new Date().toISOString(),
    });
  }

  async delete(id: string, ctx: RequestContext, auth: AuthContext): Promise<void> {
    const doc = await this.find(id, auth);
    if ((await this.documents.count(SHARES, { share_type_id: doc.id })) > 0) {
      throw badRequest(
        `Share Type ${doc.id} deletion is not allowed with shares present with the type.`,
      );
    }
    await this.run(doc.id, ctx, { type: 'DeleteShareType', now: new Date().toISOString() });
  }

  /** Runs a command on one type and returns its document once the read model has it. */
  async run(id: string, ctx: RequestContext, command: ShareTypeCommand) {
    const result = await this.commands.handle(
      shareTypeDecider,
      shareTypeStream(id),
      command,
      commandContextOf(ctx),
    );
    await this.readYourWrites.waitFor(result.position);
    return this.documents.get<ShareTypeDocument>(SHARE_TYPES, id);
  }
}
