import { Inject, Injectable } from '@nestjs/common';
import {
  badRequest,
  notFoundError,
  toPositiveInteger,
  type CreateShareDto,
} from '#hawser/api-contracts';
import { invalidShareSize } from './create-share-refusals.js';
import {
  preferredInstance,
  preferredSnapshotInstance,
  snapshotAggregateStatus,
  type ActiveShare,
  type SnapshotSource,
} from '#hawser/domain';
import {
  SHARE_TYPES,
  SHARES,
  SNAPSHOTS,
  shareStateOf,
  type AvailabilityZoneDocument,
  type ShareRecord,
  type ShareTypeDocument,
  type SnapshotDocument,
} from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import { atLeast, type ApiVersion, type Caller } from '../requester.js';
import { ShareTypeReads } from '../share-types/share-type-reads.js';
import { USE_CASE_SETTINGS, type UseCaseSettings } from '../use-case-settings.js';

/** What a create request from a snapshot resolves to. */
export interface ResolvedSnapshotSource {
  readonly source: SnapshotSource;
  /** The parent share's type (a given type must be that one). */
  readonly shareType: ShareTypeDocument;
  /** The size asked for, else the snapshot's. */
  readonly size: number;
  /** The zone asked for, else the source share's. */
  readonly availabilityZone: string | null;
}

/**
 * Manila's answer to a share created from a snapshot it cannot find: its API does not catch
 * the exception, so the fault names its class first.
 */
const snapshotNotFound = (snapshotId: string) =>
  notFoundError(`ShareSnapshotNotFound: Snapshot ${snapshotId} could not be found.`);

/**
 * Manila's rules for creating a share from a snapshot (reference 4.1, 4.2), in its order: the
 * snapshot must be visible (404), its share able to clone (400, from 2.24), a given type the
 * parent's (400), the snapshot available (400), the size not below the snapshot's (400), and a
 * zone other than the source's needs use_scheduler_creating_share_from_snapshot (400).
 */
@Injectable()
export class SnapshotSources {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(USE_CASE_SETTINGS) private readonly config: UseCaseSettings,
    private readonly shareTypes: ShareTypeReads,
  ) {}

  async resolve(
    dto: CreateShareDto,
    zone: AvailabilityZoneDocument | undefined,
    version: ApiVersion,
    auth: Caller,
  ): Promise<ResolvedSnapshotSource> {
    const snapshotId = dto.snapshot_id as string;
    const snapshot = await this.documents.get<SnapshotDocument>(SNAPSHOTS, snapshotId);
    if (!snapshot || !(auth.isAdmin || snapshot.project_id === auth.projectId)) {
      throw snapshotNotFound(snapshotId);
    }
    const record = await this.documents.get<ShareRecord>(SHARES, snapshot.share_id);
    const parent = record && shareStateOf(record);
    const parentSnapshot = parent?.snapshots.find((s) => s.id === snapshotId);
    if (!parent || !parentSnapshot) {
      throw snapshotNotFound(snapshotId);
    }
    if (atLeast(version, '2.24') && !parent.capabilities?.createShareFromSnapshotSupport) {
      throw badRequest(
        `A new share may not be created from snapshot '${snapshotId}', because the snapshot's ` +
          `parent share does not have that capability.`,
      );
    }
    const shareType = await this.shareTypeFor(dto, parent, auth);
    const replicaStateOf = (id: string) => parent.instances.find((i) => i.id === id)?.replicaState;
    const status = snapshotAggregateStatus(parentSnapshot, replicaStateOf);
    if (status !== 'available') {
      throw badRequest(`Snapshot status must be available, not ${String(status)}.`);
    }
    const size = this.sizeFor(dto, parentSnapshot.size);
    const snapshotInstance = preferredSnapshotInstance(parentSnapshot, replicaStateOf);
    const sourceInstance =
      parent.instances.find((i) => i.id === snapshotInstance?.shareInstanceId) ??
      preferredInstance(parent.instances);
    if (!snapshotInstance || !sourceInstance?.host) {
      throw badRequest(`Snapshot ${snapshotId} has no instance to create a share from.`);
    }
    const sourceZone = sourceInstance.availabilityZone;
    const useScheduler = this.config.useSchedulerCreatingShareFromSnapshot;
    if (zone && zone.name !== sourceZone && !useScheduler) {
      throw badRequest(
        `The share from snapshot must be created in the availability zone of the source share ` +
          `(${String(sourceZone)}), not ${zone.name}: creating it elsewhere is not enabled ` +
          `(use_scheduler_creating_share_from_snapshot).`,
      );
    }
    return {
      source: {
        snapshotId,
        snapshotInstanceId: snapshotInstance.id,
        shareId: parent.id,
        shareInstanceId: sourceInstance.id,
        host: sourceInstance.host,
        availabilityZone: sourceZone,
        size: parentSnapshot.size,
        placement: useScheduler ? 'scheduler' : 'source-pool',
      },
      shareType,
      size,
      availabilityZone: zone?.name ?? sourceZone,
    };
  }

  /** The parent's type; a type named in the request must exist (404) and be that one (400). */
  private async shareTypeFor(
    dto: CreateShareDto,
    parent: ActiveShare,
    auth: Caller,
  ): Promise<ShareTypeDocument> {
    const parentTypeId = parent.shareType?.id ?? '';
    const typeName = dto.share_type ?? dto.volume_type;
    if (typeName) {
      const given = await this.shareTypes.find(typeName, auth);
      if (given.id !== parentTypeId) {
        throw badRequest(
          `Invalid share type specified: the requested share type must match the type of the ` +
            `source share.`,
        );
      }
      return given;
    }
    const parentType = await this.documents.get<ShareTypeDocument>(SHARE_TYPES, parentTypeId);
    if (!parentType) throw notFoundError(`Share type ${parentTypeId} could not be found.`);
    return parentType;
  }

  private sizeFor(dto: CreateShareDto, snapshotSize: number): number {
    if (dto.size === undefined || dto.size === null) return snapshotSize;
    const size = toPositiveInteger(dto.size);
    if (size === undefined || size < 1) {
      throw invalidShareSize(dto.size);
    }
    if (size < snapshotSize) {
      throw badRequest(
        `Share size (${size} GiB) cannot be smaller than the size of the snapshot (${snapshotSize} GiB).`,
      );
    }
    return size;
  }
}
