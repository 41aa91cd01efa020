import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ShareInstanceDocument } from '#hawser/projections';
import type { Reader } from '../requester.js';
import type { ListingWindow } from '../listing/page-params.js';
import { ReplicaReads } from './replica-reads.js';

/** A replica of one of the reader's project's shares (any for admins); else 404. */
export class ShowReplica extends Query<ShareInstanceDocument> {
  constructor(
    readonly replicaId: string,
    readonly reader: Reader,
  ) {
    super();
  }
}

/** The replicas the reader may see in `window`, optionally of one share, newest first. */
export class ListReplicas extends Query<readonly ShareInstanceDocument[]> {
  constructor(
    readonly shareId: string | undefined,
    readonly reader: Reader,
    readonly window: ListingWindow,
  ) {
    super();
  }
}

@QueryHandler(ShowReplica)
export class ShowReplicaHandler implements IQueryHandler<ShowReplica, ShareInstanceDocument> {
  constructor(private readonly replicas: ReplicaReads) {}

  execute({ replicaId, reader }: ShowReplica): Promise<ShareInstanceDocument> {
    return this.replicas.find(replicaId, reader.caller);
  }
}

@QueryHandler(ListReplicas)
export class ListReplicasHandler implements IQueryHandler<
  ListReplicas,
  readonly ShareInstanceDocument[]
> {
  constructor(private readonly replicas: ReplicaReads) {}

  execute({ shareId, reader, window }: ListReplicas): Promise<readonly ShareInstanceDocument[]> {
    return this.replicas.list(reader.caller, shareId, window);
  }
}
