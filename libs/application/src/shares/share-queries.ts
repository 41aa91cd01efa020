import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { AccessRuleDocument, ShareDocument } from '#hawser/projections';
import type { Reader } from '../requester.js';
import { ShareReads } from './share-reads.js';

/** A share the reader may see (its own, a public one, any for admins); else 404. */
export class ShowShare extends Query<ShareDocument> {
  constructor(
    readonly shareId: string,
    readonly reader: Reader,
  ) {
    super();
  }
}

/** The access rules of a share the reader may see, oldest first. */
export class ListAccessRules extends Query<AccessRuleDocument[]> {
  constructor(
    readonly shareId: string,
    readonly reader: Reader,
  ) {
    super();
  }
}

/** One access rule on a share the reader may see; else the 404 naming the rule only. */
export class ShowAccessRule extends Query<AccessRuleDocument> {
  constructor(
    readonly accessId: string,
    readonly reader: Reader,
  ) {
    super();
  }
}

@QueryHandler(ShowShare)
export class ShowShareHandler implements IQueryHandler<ShowShare, ShareDocument> {
  constructor(private readonly shares: ShareReads) {}

  execute({ shareId, reader }: ShowShare): Promise<ShareDocument> {
    return this.shares.findFor(shareId, reader);
  }
}

@QueryHandler(ListAccessRules)
export class ListAccessRulesHandler implements IQueryHandler<
  ListAccessRules,
  AccessRuleDocument[]
> {
  constructor(private readonly shares: ShareReads) {}

  execute({ shareId, reader }: ListAccessRules): Promise<AccessRuleDocument[]> {
    return this.shares.accessRules(shareId, reader.caller);
  }
}

@QueryHandler(ShowAccessRule)
export class ShowAccessRuleHandler implements IQueryHandler<ShowAccessRule, AccessRuleDocument> {
  constructor(private readonly shares: ShareReads) {}

  execute({ accessId, reader }: ShowAccessRule): Promise<AccessRuleDocument> {
    return this.shares.findAccessRule(accessId, reader.caller);
  }
}
