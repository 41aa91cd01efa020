import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { badRequest, notFoundError, type CreateShareReplicaDto } from '#hawser/api-contracts';
import {
  activeShareOrUndefined,
  derivedId,
  requestHolding,
  type QuotaDeltas,
  type ShareCommand,
} from '#hawser/domain';
import { toShareInstanceDocument, type ShareInstanceDocument } from '#hawser/projections';
import { timeOrderedId } from '../time-ordered-id.js';
import { faultInjectionPoint } from '../fault-injection.js';
import { QuotaReservations, type QuotaHolder } from '../quotas/quota-reservations.js';
import { atLeast, type Requester } from '../requester.js';
import { ShareChanges } from '../shares/share-changes.js';
import { ShareReads } from '../shares/share-reads.js';
import { REPLICA_CONFLICT_RETRIES } from './replica-changes.js';

/** POST /share-replicas (reference 3.7, 5): a new replica, counted against the quota first. */
export class CreateReplica extends Command<ShareInstanceDocument> {
  constructor(
    readonly request: CreateShareReplicaDto,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** What adding a replica of a `size` GiB share counts against the quota (reference 5.9). */
const replicaCreationDeltas = (size: number): QuotaDeltas => ({
  share_replicas: 1,
  replica_gigabytes: size,
});

@CommandHandler(CreateReplica)
export class CreateReplicaHandler implements ICommandHandler<CreateReplica, ShareInstanceDocument> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
    private readonly quotas: QuotaReservations,
  ) {}

  async execute({ request: dto, requester }: CreateReplica): Promise<ShareInstanceDocument> {
    if (dto.share_network_id) {
      if (!atLeast(requester.version, '2.72')) {
        throw badRequest('share_network_id is accepted from microversion 2.72.');
      }
      throw notFoundError(`Share network ${dto.share_network_id} could not be found.`);
    }
    const { share, state } = await this.shares.findWithState(dto.share_id, requester);
    if (!share.replication_type) {
      throw badRequest(`Replication not supported for share ${share.id}.`);
    }
    const onlyHost = replicaOnlyHost(dto.scheduler_hints, requester);
    const zone = dto.availability_zone
      ? await this.shares.findZone(dto.availability_zone)
      : undefined;
    const typeZones = (state.shareType?.extraSpecs.availability_zones ?? '')
      .split(',')
      .map((z) => z.trim())
      .filter(Boolean);
    if (zone && typeZones.length > 0 && !typeZones.includes(zone.name)) {
      throw badRequest(
        `Share replica cannot be created in availability zone ${zone.name}: the share type ` +
          `allows only ${typeZones.join(', ')}.`,
      );
    }

    const replicaId = timeOrderedId();
    const request: ShareCommand = {
      type: 'RequestReplica',
      replicaId,
      availabilityZone: zone?.name ?? null,
      ...(onlyHost !== undefined && { onlyHost }),
      now: new Date().toISOString(),
    };
    // Whatever the decision refuses is refused before anything is counted.
    await this.changes.decideOnly(share.id, request);
    // The quota counts the replica before it exists; a request that then fails gives it back.
    const quotaContext = requester.commandContext();
    // Counted for the share's owner, whom Manila's replica deletion releases it for.
    const holder: QuotaHolder = {
      projectId: share.project_id,
      userId: share.user_id,
      ...(share.share_type_id !== null && { shareTypeId: share.share_type_id }),
      holderId: replicaId,
      holderKind: 'share_replica',
      deltas: replicaCreationDeltas(share.size),
    };
    await this.quotas.reserve(holder, share.id, quotaContext);
    const requested = this.changes.record(share.id, request, requester.commandContext(), {
      // A replica of a share resized meanwhile would count other gigabytes: 409.
      counted: { counted: holder.deltas, needed: (decided) => replicaCreationDeltas(decided.size) },
      decider: requestHolding(replicaId),
      retryOnConflict: REPLICA_CONFLICT_RETRIES,
    });
    const result = await requested.catch(async (error: unknown) => {
      const releaseId = derivedId(quotaContext.commandId, 'release');
      await this.quotas.release(holder, {
        ...quotaContext,
        commandId: releaseId,
      });
      throw error;
    });
    faultInjectionPoint('after-request-recorded:share_replica');
    await this.changes.shown(result);
    // The replica as this request left it: the scheduler may have moved on already.
    const recorded = activeShareOrUndefined(result.state);
    const replica = recorded?.instances.find((i) => i.id === replicaId);
    if (!recorded || !replica) {
      throw notFoundError(`Share replica ${replicaId} could not be found.`);
    }
    return toShareInstanceDocument(recorded, replica, result.revision);
  }
}

/**
 * `scheduler_hints` of a replica create: from 2.67 an admin's `only_host` places the replica on
 * that pool and the share's affinity hints are not applied (Manila's override); a member's
 * `only_host` is ignored, as for shares. Other keys are not replica hints: 400.
 */
const replicaOnlyHost = (raw: unknown, requester: Requester): string | undefined => {
  if (raw === undefined || raw === null) return undefined;
  if (!atLeast(requester.version, '2.67')) {
    throw badRequest('Scheduler hints are accepted for share replicas from microversion 2.67.');
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw badRequest('scheduler_hints must be an object.');
  }
  const { only_host: onlyHost, ...others } = raw as Record<string, unknown>;
  if (Object.keys(others).length > 0) {
    throw badRequest(
      `Share replicas take only the only_host hint, not ${Object.keys(others).join(', ')}.`,
    );
  }
  if (onlyHost === undefined || onlyHost === null || onlyHost === '') return undefined;
  if (typeof onlyHost !== 'string') throw badRequest('only_host must be a pool host string.');
  return requester.caller.isAdmin ? onlyHost : undefined;
};
