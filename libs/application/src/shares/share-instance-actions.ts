import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFoundError } from '#hawser/api-contracts';
import type { ShareStatus } from '#hawser/domain';
import { getShareInstance, type ShareInstanceDocument } from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import type { Requester } from '../requester.js';
import { ShareChanges } from './share-changes.js';
import { ShareReads } from './share-reads.js';

const now = () => new Date().toISOString();

/** The share instance's `reset_status` action (2.3+, admin): that instance's status. */
export class ResetShareInstanceStatus extends Command<void> {
  constructor(
    readonly instanceId: string,
    readonly status: ShareStatus,
    readonly requester: Requester,
  ) {
    super();
  }
}

/**
 * The share instance's `force_delete` action (2.3+, admin): removes it whatever its back end
 * says; the whole share when it is the share's only instance, else that replica.
 */
export class ForceDeleteShareInstance extends Command<void> {
  constructor(
    readonly instanceId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** An instance by id, whatever its project: these actions are an admin's. */
const instanceOf = async (documents: DocumentStore, id: string): Promise<ShareInstanceDocument> => {
  const doc = await getShareInstance(documents, id);
  if (!doc) throw notFoundError(`Share instance ${id} could not be found.`);
  return doc;
};

@CommandHandler(ResetShareInstanceStatus)
export class ResetShareInstanceStatusHandler implements ICommandHandler<
  ResetShareInstanceStatus,
  void
> {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ instanceId, status, requester }: ResetShareInstanceStatus): Promise<void> {
    const instance = await instanceOf(this.documents, instanceId);
    await this.changes.run(
      instance.share_id,
      { type: 'ResetShareStatus', status, instanceId: instance.id, now: now() },
      requester.commandContext(),
    );
  }
}

@CommandHandler(ForceDeleteShareInstance)
export class ForceDeleteShareInstanceHandler implements ICommandHandler<
  ForceDeleteShareInstance,
  void
> {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ instanceId, requester }: ForceDeleteShareInstance): Promise<void> {
    const instance = await instanceOf(this.documents, instanceId);
    const share = await this.shares.folded(instance.share_id);
    const at = now();
    await this.changes.run(
      instance.share_id,
      (share?.instances.length ?? 0) > 1
        ? { type: 'DeleteReplica', replicaId: instance.id, force: true, now: at }
        : { type: 'DeleteShare', force: true, now: at },
      requester.commandContext(),
    );
  }
}
