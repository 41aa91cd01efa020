import { Inject, Injectable } from '@nestjs/common';
import { ManilaHttpError, notFoundError } from '#hawser/api-contracts';
import {
  ACCESS_RULES,
  AVAILABILITY_ZONES,
  SHARES,
  shareStateOf,
  type AccessRuleDocument,
  type AvailabilityZoneDocument,
  type ShareDocument,
  type ShareRecord,
} from '#hawser/projections';
import type { ActiveShare } from '#hawser/domain';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import type { Caller, Reader } from '../requester.js';
import { ShareDocuments } from './share-documents.js';

/** What a share look-up needs of a request's reader. */
export type ShareLookup = Pick<Reader, 'caller' | 'checkedShare'>;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The share read models as a caller may see them: the lookups every share use case starts with. */
@Injectable()
export class ShareReads {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly shareDocuments: ShareDocuments,
  ) {}

  /** A share the caller may read: its own, a public one, or any for admins; else 404. */
  async find(id: string, caller: Caller): Promise<ShareDocument> {
    return this.shareDocuments.of(await this.findRecord(id, caller));
  }

  /**
   * As `find`, for a request's reader: when the record its policy check read a moment before
   * (`checkedShare`) is this share's, it is not read again.
   */
  async findFor(id: string, reader: ShareLookup): Promise<ShareDocument> {
    return this.shareDocuments.of(await this.findRecord(id, reader.caller, reader.checkedShare));
  }

  /**
   * As `findFor`, with the share's folded domain state from the same record: a use case that
   * checks the share's type or instances before deciding reads the share once.
   */
  async findWithState(
    id: string,
    reader: ShareLookup,
  ): Promise<{ share: ShareDocument; state: ActiveShare }> {
    const record = await this.findRecord(id, reader.caller, reader.checkedShare);
    return { share: this.shareDocuments.of(record), state: shareStateOf(record) };
  }

  private async findRecord(id: string, caller: Caller, read?: ShareRecord): Promise<ShareRecord> {
    const record =
      read?.id === id
        ? read
        : UUID.test(id)
          ? await this.documents.get<ShareRecord>(SHARES, id)
          : undefined;
    if (
      !record ||
      !(caller.isAdmin || record.project_id === caller.projectId || record.is_public)
    ) {
      throw notFoundError(`Share ${id} could not be found.`);
    }
    return record;
  }

  /** The share's folded domain state, as the shares read model keeps it. */
  async folded(id: string): Promise<ActiveShare | undefined> {
    const record = await this.documents.get<ShareRecord>(SHARES, id);
    return record && shareStateOf(record);
  }

  async findZone(idOrName: string): Promise<AvailabilityZoneDocument> {
    const zone =
      (await this.documents.get<AvailabilityZoneDocument>(AVAILABILITY_ZONES, idOrName)) ??
      (
        await this.documents.find<AvailabilityZoneDocument>(AVAILABILITY_ZONES, { name: idOrName })
      )[0];
    if (!zone) throw notFoundError(`Availability zone ${idOrName} could not be found.`);
    return zone;
  }

  /** The rules of a share the caller may read, oldest first. */
  async accessRules(shareId: string, caller: Caller): Promise<AccessRuleDocument[]> {
    const share = await this.find(shareId, caller);
    return this.documents.find<AccessRuleDocument>(
      ACCESS_RULES,
      { share_id: share.id },
      {
        sort: [
          ['created_at', 1],
          ['id', 1],
        ],
      },
    );
  }

  /**
   * A rule of `share`, which the caller was just shown may be read (a rule granted by the same
   * request): its share is not looked up again. Else the 404 of an unknown rule.
   */
  async accessRuleOf(share: ShareDocument, accessId: string): Promise<AccessRuleDocument> {
    const rule = await this.documents.get<AccessRuleDocument>(ACCESS_RULES, accessId);
    if (rule?.share_id !== share.id) {
      throw notFoundError(`Access rule ${accessId} could not be found.`);
    }
    return rule;
  }

  /**
   * A rule on a share the caller may read; else the 404 of an unknown rule, which names the rule
   * only: a rule of another project's private share does not tell that share's id.
   */
  async findAccessRule(accessId: string, caller: Caller): Promise<AccessRuleDocument> {
    const rule = UUID.test(accessId)
      ? await this.documents.get<AccessRuleDocument>(ACCESS_RULES, accessId)
      : undefined;
    const share = rule && (await this.find(rule.share_id, caller).catch(unlessNotFound));
    if (!rule || !share) throw notFoundError(`Access rule ${accessId} could not be found.`);
    return rule;
  }
}

/** Undefined for a 404, so a caller can answer its own; any other failure stands. */
const unlessNotFound = (error: unknown): undefined => {
  if (error instanceof ManilaHttpError && error.status === 404) return undefined;
  throw error;
};
