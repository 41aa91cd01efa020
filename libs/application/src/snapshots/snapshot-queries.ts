import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { SnapshotDocument } from '#hawser/projections';
import type { Reader } from '../requester.js';
import { SnapshotReads } from './snapshot-reads.js';

/** A snapshot of the reader's project (any for admins); else 404. */
export class ShowSnapshot extends Query<SnapshotDocument> {
  constructor(
    readonly snapshotId: string,
    readonly reader: Reader,
  ) {
    super();
  }
}

@QueryHandler(ShowSnapshot)
export class ShowSnapshotHandler implements IQueryHandler<ShowSnapshot, SnapshotDocument> {
  constructor(private readonly snapshots: SnapshotReads) {}

  execute({ snapshotId, reader }: ShowSnapshot): Promise<SnapshotDocument> {
    return this.snapshots.find(snapshotId, reader.caller);
  }
}
