import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, faultInjectionPoint, ShareReads } from '#hawser/application';
import type { CreateShareReplicaDto } from '#hawser/api-contracts';
import {
  derivedId,
  requestHolding,
  shareDecider,
  shareStream,
  type QuotaDeltas,
  type ShareCommand,
} from '#hawser/domain';
import {
  SHARE_INSTANCES,
  SHARES,
  toShareInstanceDocument,
  type ShareInstanceDocument,
  type ShareRecord,
} from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { DOCUMENT_STORE, READ_YOUR_WRITES, type ReadYourWrites } from '#hawser/platform';
import { commandContextOf } from '../http/command-context.js';
import { badRequest, notFoundError } from '../http/manila-error.js';
import { atLeast, type AuthContext, type RequestContext } from '../http/request-context.js';
import { QuotasService } from '../quota-sets/quotas.service.js';

/** Simultaneous requests on one share re-decide on the newer revision (one promotion wins). */
const CONFLICT_RETRIES = 20;

/** What adding a replica of a `size` GiB share counts against the quota (reference 5.9). */
const replicaCreationDeltas = (size: number): QuotaDeltas => ({
  share_replicas: 1,
  replica_gigabytes: size,
});

/** The share replica use cases (reference 3.7 and 5): checks, then one command on the share. */
@Injectable()
export class ShareReplicasService {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly commands: CommandHandler,
    private readonly shares: ShareReads,
    private readonly quotas: QuotasService,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
  ) {}

  /** A replica of one of the caller's project's shares (any for admins); else 404. */
  async find(id: string, auth: AuthContext): Promise<ShareInstanceDocument> {
    const doc = await this.documents.get<ShareInstanceDocument>(SHARE_INSTANCES, id);
    if (
      !doc ||
      doc.replica_state === null ||
      !(auth.isAdmin || doc.project_id === auth.projectId)
    ) {
      throw notFoundError(`Share replica ${id} could not be found.`);
    }
    return doc;
  }

  /** Every replica the caller may see, optionally of one share, oldest first. */
  async list(auth: AuthContext, shareId: string | undefined): Promise<ShareInstanceDocument[]> {
    const docs = await this.documents.find<ShareInstanceDocument>(
      SHARE_INSTANCES,
      {
        replica_state: { $ne: null },
        ...(shareId !== undefined && { share_id: shareId }),
        ...(!auth.isAdmin && { project_id: auth.projectId }),
      },
      { sort: [['created_at', 1]] },
    );
    return docs;
  }

  async create(
    dto: CreateShareReplicaDto,
    ctx: RequestContext,
    auth: AuthContext,
  ): Promise<ShareInstanceDocument> {
    if (dto.share_network_id) {
      if (!atLeast(ctx.microversion, '2.72')) {
        throw badRequest('share_network_id is accepted from microversion 2.72.');
      }
      throw notFoundError(`Share network ${dto.share_network_id} could not be found.`);
    }
    const share = await this.shares.find(dto.share_id, auth);
    if (!share.replication_type) {
      throw badRequest(`Replication not supported for share ${share.id}.`);
    }
    const onlyHost = replicaOnlyHost(dto.scheduler_hints, ctx, auth);
    const zone = dto.availability_zone
      ? await this.shares.findZone(dto.availability_zone)
      : undefined;
    const record = await this.documents.get<ShareRecord>(SHARES, share.id);
    const typeZones = (record?.state.shareType?.extraSpecs.availability_zones ?? '')
      .split(',')
      .map((z) => z.trim())
      .filter(Boolean);
    if (zone && typeZones.length > 0 && !typeZones.includes(zone.name)) {
      throw badRequest(
        `Share replica cannot be created in availability zone ${zone.name}: the share type ` +
          `allows only ${typeZones.join(', ')}.`,
      );
    }

    const replicaId = randomUUID();
    const request: ShareCommand = {
      type: 'RequestReplica',
      replicaId,
      availabilityZone: zone?.name ?? null,
      ...(onlyHost !== undefined && { onlyHost }),
      now: new Date().toISOString(),
    };
    // Whatever the decision refuses is refused before anything is counted.
    await this.commands.decideOnly(shareDecider, shareStream(share.id), request);
    // The quota counts the replica before it exists; a request that then fails gives it back.
    const quotaContext = commandContextOf(ctx);
    await this.quotas.reserve(
      share.project_id,
      replicaId,
      'share_replica',
      replicaCreationDeltas(share.size),
      share.id,
      quotaContext,
    );
    const requested = this.commands.handle(
      requestHolding(replicaId),
      shareStream(share.id),
      request,
      commandContextOf(ctx),
      { retryOnConflict: CONFLICT_RETRIES },
    );
    const result = await requested.catch(async (error: unknown) => {
      const releaseId = derivedId(quotaContext.commandId, 'release');
      await this.quotas.release(share.project_id, replicaId, {
        ...quotaContext,
        commandId: releaseId,
      });
      throw error;
    });
    faultInjectionPoint('after-request-recorded:share_replica');
    await this.readYourWrites.waitFor(result.position);
    // The replica as this request left it: the scheduler may have moved on already.
    const replica = result.state.instances.find((i) => i.id === replicaId);
    if (!replica) throw notFoundError(`Share replica ${replicaId} could not be found.`);
    return toShareInstanceDocument(result.state, replica, result.revision);
  }

  /** Runs a command on the replica's share and waits until the read models show it. */
  async run(shareId: string, ctx: RequestContext, command: ShareCommand): Promise<boolean> {
    const result = await this.commands.handle(
      shareDecider,
      shareStream(shareId),
      command,
      commandContextOf(ctx),
      { retryOnConflict: CONFLICT_RETRIES },
    );
    await this.readYourWrites.waitFor(result.position);
    return result.position !== undefined;
  }
}

/**
 * `scheduler_hints` of a replica create: from 2.67 an admin's `only_host` places the replica on
 * that pool and the share's affinity hints are not applied (Manila's override); a member's
 * `only_host` is ignored, as for shares. Other keys are not replica hints: 400.
 */
const replicaOnlyHost = (
  raw: unknown,
  ctx: RequestContext,
  auth: AuthContext,
): string | undefined => {
  if (raw === undefined || raw === null) return undefined;
  if (!atLeast(ctx.microversion, '2.67')) {
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
  return auth.isAdmin ? onlyHost : undefined;
};
