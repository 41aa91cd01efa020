import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ShareTypeDocument } from '#hawser/projections';
import type { Reader } from '../requester.js';
import { ShareTypeReads } from './share-type-reads.js';

/** A type by id or name the reader may see; else 404. */
export class ShowShareType extends Query<ShareTypeDocument> {
  constructor(
    readonly idOrName: string,
    readonly reader: Reader,
  ) {
    super();
  }
}

/** The configured default type, when there is one and the reader may see it. */
export class ShowDefaultShareType extends Query<ShareTypeDocument | undefined> {
  constructor(readonly reader: Reader) {
    super();
  }
}

/** GET /types: `isPublic` is true|false|all for admins; others see what they may use. */
export class ListShareTypes extends Query<ShareTypeDocument[]> {
  constructor(
    readonly isPublic: string | undefined,
    readonly reader: Reader,
  ) {
    super();
  }
}

@QueryHandler(ShowShareType)
export class ShowShareTypeHandler implements IQueryHandler<ShowShareType, ShareTypeDocument> {
  constructor(private readonly types: ShareTypeReads) {}

  execute({ idOrName, reader }: ShowShareType): Promise<ShareTypeDocument> {
    return this.types.find(idOrName, reader.caller);
  }
}

@QueryHandler(ShowDefaultShareType)
export class ShowDefaultShareTypeHandler implements IQueryHandler<
  ShowDefaultShareType,
  ShareTypeDocument | undefined
> {
  constructor(private readonly types: ShareTypeReads) {}

  execute({ reader }: ShowDefaultShareType): Promise<ShareTypeDocument | undefined> {
    return this.types.findDefault(reader.caller);
  }
}

@QueryHandler(ListShareTypes)
export class ListShareTypesHandler implements IQueryHandler<ListShareTypes, ShareTypeDocument[]> {
  constructor(private readonly types: ShareTypeReads) {}

  execute({ isPublic, reader }: ListShareTypes): Promise<ShareTypeDocument[]> {
    return this.types.list(reader.caller, isPublic);
  }
}
