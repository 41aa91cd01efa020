import { Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { badRequest } from '#hawser/api-contracts';
import type { ReplicaState, ShareCommand, ShareStatus } from '#hawser/domain';
import type { ShareInstanceDocument } from '#hawser/projections';
import type { Requester } from '../requester.js';
import { ShareChanges } from '../shares/share-changes.js';
import { ReplicaReads } from './replica-reads.js';

/** Simultaneous requests on one share re-decide on the newer revision (one promotion wins). */
export const REPLICA_CONFLICT_RETRIES = 20;

const now = () => new Date().toISOString();

/** DELETE /share-replicas/{id}, or the `force_delete` action (whatever the back end says). */
export class DeleteReplica extends Command<void> {
  constructor(
    readonly replicaId: string,
    readonly force: boolean,
    readonly requester: Requester,
  ) {
    super();
  }
}

/**
 * The `promote` action: the replica promoting, as the read model shows it afterwards; null when
 * it is the active replica already (nothing to do).
 */
export class PromoteReplica extends Command<ShareInstanceDocument | null> {
  constructor(
    readonly replicaId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** The `resync` action: false when the replica is the active one already (nothing to do). */
export class ResyncReplica extends Command<boolean> {
  constructor(
    readonly replicaId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** The replica's `reset_status` action (admin). */
export class ResetReplicaStatus extends Command<void> {
  constructor(
    readonly replicaId: string,
    readonly status: ShareStatus,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** The `reset_replica_state` action (admin); the state as the request gave it (400 if none). */
export class ResetReplicaState extends Command<void> {
  constructor(
    readonly replicaId: string,
    readonly replicaState: unknown,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** A replica the requester may see, then one command on its share's stream (retried on conflict). */
@Injectable()
abstract class ReplicaCommandHandler {
  constructor(
    protected readonly replicas: ReplicaReads,
    private readonly changes: ShareChanges,
  ) {}

  protected async change(
    replica: ShareInstanceDocument,
    requester: Requester,
    command: ShareCommand,
  ): Promise<void> {
    await this.changes.run(replica.share_id, command, requester.commandContext(), {
      retryOnConflict: REPLICA_CONFLICT_RETRIES,
    });
  }
}

@CommandHandler(DeleteReplica)
export class DeleteReplicaHandler
  extends ReplicaCommandHandler
  implements ICommandHandler<DeleteReplica, void>
{
  async execute({ replicaId, force, requester }: DeleteReplica): Promise<void> {
    const doc = await this.replicas.find(replicaId, requester.caller);
    await this.change(doc, requester, {
      type: 'DeleteReplica',
      replicaId: doc.id,
      force,
      now: now(),
    });
  }
}

@CommandHandler(PromoteReplica)
export class PromoteReplicaHandler
  extends ReplicaCommandHandler
  implements ICommandHandler<PromoteReplica, ShareInstanceDocument | null>
{
  async execute({ replicaId, requester }: PromoteReplica) {
    const auth = requester.caller;
    const doc = await this.replicas.find(replicaId, auth);
    // The active replica (every writable one) is promoted already.
    if (doc.replica_state === 'active') return null;
    await this.change(doc, requester, {
      type: 'PromoteReplica',
      replicaId: doc.id,
      now: now(),
      isAdmin: auth.isAdmin,
    });
    return this.replicas.find(doc.id, auth);
  }
}

@CommandHandler(ResyncReplica)
export class ResyncReplicaHandler
  extends ReplicaCommandHandler
  implements ICommandHandler<ResyncReplica, boolean>
{
  async execute({ replicaId, requester }: ResyncReplica): Promise<boolean> {
    const doc = await this.replicas.find(replicaId, requester.caller);
    if (doc.replica_state === 'active') return false;
    await this.change(doc, requester, { type: 'ResyncReplica', replicaId: doc.id, now: now() });
    return true;
  }
}

@CommandHandler(ResetReplicaStatus)
export class ResetReplicaStatusHandler
  extends ReplicaCommandHandler
  implements ICommandHandler<ResetReplicaStatus, void>
{
  async execute({ replicaId, status, requester }: ResetReplicaStatus): Promise<void> {
    const doc = await this.replicas.find(replicaId, requester.caller);
    await this.change(doc, requester, {
      type: 'ResetReplicaStatus',
      replicaId: doc.id,
      now: now(),
      status,
    });
  }
}

@CommandHandler(ResetReplicaState)
export class ResetReplicaStateHandler
  extends ReplicaCommandHandler
  implements ICommandHandler<ResetReplicaState, void>
{
  async execute({ replicaId, replicaState, requester }: ResetReplicaState): Promise<void> {
    const doc = await this.replicas.find(replicaId, requester.caller);
    if (typeof replicaState !== 'string') throw badRequest('Must specify a replica_state.');
    await this.change(doc, requester, {
      type: 'ResetReplicaState',
      replicaId: doc.id,
      now: now(),
      replicaState: replicaState as ReplicaState,
    });
  }
}
