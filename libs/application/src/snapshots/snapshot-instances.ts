import { Inject } from '@nestjs/common';
import {
  Command,
  CommandHandler,
  Query,
  QueryHandler,
  type ICommandHandler,
  type IQueryHandler,
} from '@nestjs/cqrs';
import { notFoundError, type SnapshotInstanceDocument } from '#hawser/api-contracts';
import type { SnapshotStatus } from '#hawser/domain';
import { SNAPSHOTS, type SnapshotDocument } from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import type { Reader, Requester } from '../requester.js';
import { ShareChanges } from '../shares/share-changes.js';
import { ShareReads } from '../shares/share-reads.js';

/** GET /snapshot-instances[/detail] (2.19+, admin), optionally of one snapshot. */
export class ListSnapshotInstances extends Query<SnapshotInstanceDocument[]> {
  constructor(
    readonly snapshotId: string | undefined,
    readonly reader: Reader,
  ) {
    super();
  }
}

/** GET /snapshot-instances/{id}: 404 for an unknown id. */
export class ShowSnapshotInstance extends Query<SnapshotInstanceDocument> {
  constructor(
    readonly instanceId: string,
    readonly reader: Reader,
  ) {
    super();
  }
}

/** The `reset_status` action of one snapshot instance (admin). */
export class ResetSnapshotInstanceStatus extends Command<void> {
  constructor(
    readonly instanceId: string,
    readonly status: SnapshotStatus,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** Snapshot instances, read from the state of the share that holds each snapshot. */
class SnapshotInstanceReads {
  constructor(
    private readonly documents: DocumentStore,
    private readonly shares: ShareReads,
  ) {}

  async list(snapshotId?: string): Promise<SnapshotInstanceDocument[]> {
    const snapshots = await this.documents.find<SnapshotDocument>(
      SNAPSHOTS,
      snapshotId === undefined ? {} : { id: snapshotId },
    );
    const instances: SnapshotInstanceDocument[] = [];
    for (const snapshot of snapshots) instances.push(...(await this.instancesOf(snapshot)));
    return instances;
  }

  async find(instanceId: string): Promise<SnapshotInstanceDocument> {
    const found = (await this.list()).find((i) => i.id === instanceId);
    if (!found) throw notFoundError(`Snapshot instance ${instanceId} not found.`);
    return found;
  }

  private async instancesOf(doc: SnapshotDocument): Promise<SnapshotInstanceDocument[]> {
    const state = await this.shares.folded(doc.share_id);
    if (state?.kind !== 'active') return [];
    const snapshot = state.snapshots.find((s) => s.id === doc.id);
    return (snapshot?.instances ?? []).map((i) => ({
      id: i.id,
      snapshot_id: doc.id,
      status: i.status,
      created_at: i.createdAt,
      updated_at: i.updatedAt,
      share_id: state.id,
      share_instance_id: i.shareInstanceId,
      progress: i.progress,
      provider_location: i.providerLocation,
      export_locations: (i.exportLocations ?? []).map((l) => ({
        id: l.id,
        path: l.path,
        is_admin_only: l.isAdminOnly,
        share_snapshot_instance_id: i.id,
        created_at: i.createdAt,
        updated_at: i.updatedAt,
      })),
    }));
  }
}

@QueryHandler(ListSnapshotInstances)
export class ListSnapshotInstancesHandler implements IQueryHandler<
  ListSnapshotInstances,
  SnapshotInstanceDocument[]
> {
  private readonly reads: SnapshotInstanceReads;

  constructor(@Inject(DOCUMENT_STORE) documents: DocumentStore, shares: ShareReads) {
    this.reads = new SnapshotInstanceReads(documents, shares);
  }

  execute({ snapshotId }: ListSnapshotInstances): Promise<SnapshotInstanceDocument[]> {
    return this.reads.list(snapshotId);
  }
}

@QueryHandler(ShowSnapshotInstance)
export class ShowSnapshotInstanceHandler implements IQueryHandler<
  ShowSnapshotInstance,
  SnapshotInstanceDocument
> {
  private readonly reads: SnapshotInstanceReads;

  constructor(@Inject(DOCUMENT_STORE) documents: DocumentStore, shares: ShareReads) {
    this.reads = new SnapshotInstanceReads(documents, shares);
  }

  execute({ instanceId }: ShowSnapshotInstance): Promise<SnapshotInstanceDocument> {
    return this.reads.find(instanceId);
  }
}

@CommandHandler(ResetSnapshotInstanceStatus)
export class ResetSnapshotInstanceStatusHandler implements ICommandHandler<
  ResetSnapshotInstanceStatus,
  void
> {
  private readonly reads: SnapshotInstanceReads;

  constructor(
    @Inject(DOCUMENT_STORE) documents: DocumentStore,
    shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {
    this.reads = new SnapshotInstanceReads(documents, shares);
  }

  async execute({ instanceId, status, requester }: ResetSnapshotInstanceStatus): Promise<void> {
    const instance = await this.reads.find(instanceId);
    await this.changes.run(
      instance.share_id,
      {
        type: 'ResetSnapshotStatus',
        snapshotId: instance.snapshot_id,
        snapshotInstanceId: instance.id,
        status,
        now: new Date().toISOString(),
      },
      requester.commandContext(),
    );
  }
}
