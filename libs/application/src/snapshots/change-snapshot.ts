import { Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { metadataItemNotFound } from '#hawser/api-contracts';
import type { ShareCommand, SnapshotStatus } from '#hawser/domain';
import type { SnapshotDocument } from '#hawser/projections';
import type { Requester } from '../requester.js';
import { ShareChanges } from '../shares/share-changes.js';
import { SnapshotReads } from './snapshot-reads.js';

const now = () => new Date().toISOString();
const metadataOf = (doc: SnapshotDocument): Record<string, string> => doc.metadata ?? {};

export interface SnapshotUpdate {
  readonly name?: string | null;
  readonly description?: string | null;
}

/** PUT /snapshots/{id}: name and description. */
export class UpdateSnapshot extends Command<SnapshotDocument> {
  constructor(
    readonly snapshotId: string,
    readonly update: SnapshotUpdate,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** DELETE /snapshots/{id}, or the `force_delete` action (whatever the back end says). */
export class DeleteSnapshot extends Command<void> {
  constructor(
    readonly snapshotId: string,
    readonly force: boolean,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** The snapshot's `reset_status` action (admin). */
export class ResetSnapshotStatus extends Command<void> {
  constructor(
    readonly snapshotId: string,
    readonly status: SnapshotStatus,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** POST (merge) or PUT (replace) /snapshots/{id}/metadata (2.73); answers the metadata. */
export class SetSnapshotMetadata extends Command<Record<string, string>> {
  constructor(
    readonly snapshotId: string,
    readonly set: Record<string, string>,
    readonly replace: boolean,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** DELETE /snapshots/{id}/metadata/{key} (2.73): an unknown key is a 404. */
export class UnsetSnapshotMetadata extends Command<void> {
  constructor(
    readonly snapshotId: string,
    readonly key: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** A snapshot the requester may see, then one command on its share's stream. */
@Injectable()
abstract class SnapshotCommandHandler {
  constructor(
    protected readonly snapshots: SnapshotReads,
    private readonly changes: ShareChanges,
  ) {}

  protected async change(
    snapshotId: string,
    requester: Requester,
    command: (doc: SnapshotDocument) => ShareCommand,
  ): Promise<SnapshotDocument> {
    const doc = await this.snapshots.find(snapshotId, requester.caller);
    await this.changes.run(doc.share_id, command(doc), requester.commandContext());
    return doc;
  }
}

@CommandHandler(UpdateSnapshot)
export class UpdateSnapshotHandler
  extends SnapshotCommandHandler
  implements ICommandHandler<UpdateSnapshot, SnapshotDocument>
{
  async execute({ snapshotId, update, requester }: UpdateSnapshot): Promise<SnapshotDocument> {
    const doc = await this.change(snapshotId, requester, (snapshot) => ({
      type: 'UpdateSnapshot',
      snapshotId: snapshot.id,
      ...(update.name !== undefined && { name: update.name }),
      ...(update.description !== undefined && { description: update.description }),
      now: now(),
    }));
    return this.snapshots.find(doc.id, requester.caller);
  }
}

@CommandHandler(DeleteSnapshot)
export class DeleteSnapshotHandler
  extends SnapshotCommandHandler
  implements ICommandHandler<DeleteSnapshot, void>
{
  async execute({ snapshotId, force, requester }: DeleteSnapshot): Promise<void> {
    await this.change(snapshotId, requester, (snapshot) => ({
      type: 'DeleteSnapshot',
      snapshotId: snapshot.id,
      force,
      now: now(),
    }));
  }
}

@CommandHandler(ResetSnapshotStatus)
export class ResetSnapshotStatusHandler
  extends SnapshotCommandHandler
  implements ICommandHandler<ResetSnapshotStatus, void>
{
  async execute({ snapshotId, status, requester }: ResetSnapshotStatus): Promise<void> {
    await this.change(snapshotId, requester, (snapshot) => ({
      type: 'ResetSnapshotStatus',
      snapshotId: snapshot.id,
      status,
      now: now(),
    }));
  }
}

@CommandHandler(SetSnapshotMetadata)
export class SetSnapshotMetadataHandler
  extends SnapshotCommandHandler
  implements ICommandHandler<SetSnapshotMetadata, Record<string, string>>
{
  async execute({ snapshotId, set, replace, requester }: SetSnapshotMetadata) {
    const doc = await this.change(snapshotId, requester, (snapshot) => ({
      type: 'ChangeSnapshotMetadata',
      snapshotId: snapshot.id,
      set,
      unset: replace ? Object.keys(metadataOf(snapshot)).filter((k) => !Object.hasOwn(set, k)) : [],
      now: now(),
    }));
    return metadataOf(await this.snapshots.find(doc.id, requester.caller));
  }
}

@CommandHandler(UnsetSnapshotMetadata)
export class UnsetSnapshotMetadataHandler
  extends SnapshotCommandHandler
  implements ICommandHandler<UnsetSnapshotMetadata, void>
{
  async execute({ snapshotId, key, requester }: UnsetSnapshotMetadata): Promise<void> {
    await this.change(snapshotId, requester, (snapshot) => {
      if (!Object.hasOwn(metadataOf(snapshot), key)) {
        throw metadataItemNotFound();
      }
      return {
        type: 'ChangeSnapshotMetadata',
        snapshotId: snapshot.id,
        set: {},
        unset: [key],
        now: now(),
      };
    });
  }
}
