import { Inject, Injectable } from '@nestjs/common';
import { badRequest, notFoundError, toBoolean } from '#hawser/api-contracts';
import { SHARE_TYPES, type ShareTypeDocument } from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import type { Caller } from '../requester.js';
import { UUID } from '../shares/share-reads.js';
import { USE_CASE_SETTINGS, type UseCaseSettings } from '../use-case-settings.js';

const visibleTo = (doc: ShareTypeDocument, caller: Caller): boolean =>
  caller.isAdmin || doc.is_public || doc.projects.includes(caller.projectId);

/** Share types as a caller may see them (Manila's visibility rules). */
@Injectable()
export class ShareTypeReads {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(USE_CASE_SETTINGS) private readonly settings: UseCaseSettings,
  ) {}

  get defaultShareTypeName(): string | undefined {
    return this.settings.defaultShareType;
  }

  /** By id or name; a private type the caller cannot see does not exist for it (404). */
  async find(idOrName: string, caller: Caller): Promise<ShareTypeDocument> {
    const doc =
      (UUID.test(idOrName)
        ? await this.documents.get<ShareTypeDocument>(SHARE_TYPES, idOrName)
        : undefined) ??
      (await this.documents.find<ShareTypeDocument>(SHARE_TYPES, { name: idOrName }))[0];
    if (!doc || !visibleTo(doc, caller)) {
      throw notFoundError(`Share type ${idOrName} could not be found.`);
    }
    return doc;
  }

  async findDefault(caller: Caller): Promise<ShareTypeDocument | undefined> {
    if (!this.settings.defaultShareType) return undefined;
    return this.find(this.settings.defaultShareType, caller).catch(() => undefined);
  }

  /** GET /types: `is_public` is true|false|all for admins; others see what they may use. */
  async list(caller: Caller, isPublic: string | undefined): Promise<ShareTypeDocument[]> {
    const all = await this.documents.find<ShareTypeDocument>(
      SHARE_TYPES,
      {},
      { sort: [['name', 1]] },
    );
    if (!caller.isAdmin) return all.filter((t) => visibleTo(t, caller));
    if (isPublic === 'all') return all;
    const wanted = toBoolean(isPublic ?? 'true');
    if (wanted === undefined) throw badRequest(`Invalid is_public filter [${isPublic}]`);
    return all.filter((t) =>
      wanted ? t.is_public || t.projects.includes(caller.projectId) : !t.is_public,
    );
  }
}
