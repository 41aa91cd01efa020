import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, faultInjectionPoint, type CommandContext } from '#hawser/application';
import {
  toBoolean,
  toPositiveInteger,
  type AllowAccessDto,
  type CreateShareDto,
  type ResizeShareDto,
} from '#hawser/api-contracts';
import {
  capabilitiesOf,
  derivedId,
  DomainError,
  parseBoolean,
  requestHolding,
  shareCreationDeltas,
  shareDecider,
  shareResizeDeltas,
  shareStream,
  type Decider,
  type ShareCommand,
  type ShareEvent,
  type ShareState,
} from '#hawser/domain';
import {
  ACCESS_RULES,
  type AccessRuleDocument,
  AVAILABILITY_ZONES,
  SHARES,
  shareDocumentOf,
  type ShareRecord,
  type AvailabilityZoneDocument,
  type ShareDocument,
  type ShareTypeDocument,
} from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import {
  DOCUMENT_STORE,
  HAWSER_CONFIG,
  READ_YOUR_WRITES,
  type HawserConfig,
  type ReadYourWrites,
} from '#hawser/platform';
import { commandContextOf } from '../http/command-context.js';
import {
  badRequest,
  forbiddenError,
  ManilaHttpError,
  notFoundError,
} from '../http/manila-error.js';
import { atLeast, type AuthContext, type RequestContext } from '../http/request-context.js';
import { policyOf } from '../policy/request-policy.js';
import { QuotasService } from '../quota-sets/quotas.service.js';
import { ShareTypesService } from '../share-types/share-types.service.js';
import { SnapshotSourceResolver } from './snapshot-source.resolver.js';
import { createHintsOf } from './scheduler-hints.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The share use cases: the checks that span aggregates, then one command on the share. */
@Injectable()
export class SharesService {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly commands: CommandHandler,
    private readonly shareTypes: ShareTypesService,
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
    @Inject(HAWSER_CONFIG) private readonly config: HawserConfig,
    private readonly quotas: QuotasService,
    private readonly snapshotSources: SnapshotSourceResolver,
  ) {}

  /** A share the caller may read: its own, a public one, or any for admins; else 404. */
  async find(id: string, auth: AuthContext): Promise<ShareDocument> {
    const record = UUID.test(id) ? await this.documents.get<ShareRecord>(SHARES, id) : undefined;
    if (!record || !(auth.isAdmin || record.project_id === auth.projectId || record.is_public)) {
      throw notFoundError(`Share ${id} could not be found.`);
    }
    return shareDocumentOf(record);
  }

  async create(
    dto: CreateShareDto,
    ctx: RequestContext,
    auth: AuthContext,
  ): Promise<ShareDocument> {
    const isPublic = toBoolean(dto.is_public ?? false) as boolean;
    if (isPublic) policyOf(ctx).enforce('share:create_public_share');
    const zone = dto.availability_zone ? await this.findZone(dto.availability_zone) : undefined;
    if (dto.share_network_id) {
      throw notFoundError(`Share network ${dto.share_network_id} could not be found.`);
    }
    if (dto.share_type && dto.volume_type) {
      throw badRequest('Only one of share_type and volume_type may be given.');
    }
    const clone = dto.snapshot_id
      ? await this.snapshotSources.resolve(dto, zone, ctx, auth)
      : undefined;
    const typeName = dto.share_type ?? dto.volume_type;
    const shareType =
      clone?.shareType ??
      (typeName
        ? await this.shareTypes.find(typeName, auth)
        : await this.shareTypes.findDefault(auth));
    if (!shareType) {
      throw badRequest('No share type was given and no default share type is configured.');
    }
    if (parseBoolean(shareType.extra_specs.driver_handles_share_servers ?? 'false')) {
      throw badRequest(
        'Share network must be set when the share type has driver_handles_share_servers=True.',
      );
    }
    this.checkTypeZones(shareType, zone, ctx);
    const size = clone?.size ?? toPositiveInteger(dto.size);
    if (size === undefined || size < 1) {
      throw badRequest(`Share size must be an integer greater than 0, not ${String(dto.size)}.`);
    }
    this.checkTypeSizes(shareType, size);
    const proto = dto.share_proto.toUpperCase();
    if (!this.config.enabledShareProtocols.includes(proto)) {
      throw badRequest(
        `Invalid share protocol provided: ${dto.share_proto}. It is either disabled or unsupported.`,
      );
    }

    const hints = await createHintsOf(dto, ctx, auth, (id) => this.find(id, auth));

    const shareId = randomUUID();
    const request: ShareCommand = {
      type: 'RequestShare',
      shareId,
      instanceId: randomUUID(),
      projectId: auth.projectId,
      userId: auth.userId,
      name: dto.display_name ?? dto.name ?? null,
      description: dto.display_description ?? dto.description ?? null,
      size,
      shareProto: proto,
      shareType: { id: shareType.id, name: shareType.name, extraSpecs: shareType.extra_specs },
      capabilities: capabilitiesOf(shareType.extra_specs),
      availabilityZone: clone?.availabilityZone ?? zone?.name ?? null,
      metadata: hints.metadata,
      isPublic,
      snapshotId: clone?.source.snapshotId ?? null,
      ...(clone && { snapshotSource: clone.source }),
      schedulerHints: hints.schedulerHints,
      createdAt: new Date().toISOString(),
    };
    // Whatever the decision refuses (metadata, size, ...) is refused before anything is counted.
    await this.commands.decideOnly(shareDecider, shareStream(shareId), request);
    // The quota counts the share before it exists; a request that then fails gives it back.
    const quotaContext = commandContextOf(ctx);
    const replicated = Boolean(shareType.extra_specs.replication_type);
    const deltas = shareCreationDeltas(size, replicated);
    await this.quotas.reserve(auth.projectId, shareId, 'share', deltas, shareId, quotaContext);
    const requested = this.commands.handle(
      requestHolding(shareId),
      shareStream(shareId),
      request,
      commandContextOf(ctx),
    );
    const result = await requested.catch(async (error: unknown) => {
      const releaseId = derivedId(quotaContext.commandId, 'release');
      await this.quotas.release(auth.projectId, shareId, { ...quotaContext, commandId: releaseId });
      throw error;
    });
    faultInjectionPoint('after-request-recorded:share');
    await this.readYourWrites.waitFor(result.position);
    return this.find(shareId, auth);
  }

  /** Runs a command on a share and returns the share as the read model shows it afterwards. */
  async run(
    shareId: string,
    ctx: RequestContext,
    command: ShareCommand,
    commandContext: CommandContext = commandContextOf(ctx),
    decider: Decider<ShareState, ShareCommand, ShareEvent> = shareDecider,
  ): Promise<void> {
    const result = await this.commands.handle(
      decider,
      shareStream(shareId),
      command,
      commandContext,
    );
    await this.readYourWrites.waitFor(result.position);
  }

  /** allow_access (reference 3.4): the share's decider checks values, duplicates and status. */
  async allowAccess(
    shareId: string,
    dto: AllowAccessDto,
    ctx: RequestContext,
    auth: AuthContext,
  ): Promise<AccessRuleDocument> {
    const share = await this.find(shareId, auth);
    if (dto.access_type === 'cephx' && !atLeast(ctx.microversion, '2.13')) {
      throw badRequest('Only "ip", "user" or "cert" access types are supported before 2.13.');
    }
    const accessId = randomUUID();
    await this.run(share.id, ctx, {
      type: 'AllowAccess',
      accessId,
      accessType: dto.access_type,
      accessTo: dto.access_to,
      accessLevel: dto.access_level ?? 'rw',
      metadata: atLeast(ctx.microversion, '2.45') ? (dto.metadata ?? {}) : {},
      ipv6: atLeast(ctx.microversion, '2.38'),
      now: new Date().toISOString(),
    });
    return this.findAccessRule(accessId, auth);
  }

  async denyAccess(shareId: string, accessId: string, ctx: RequestContext, auth: AuthContext) {
    const share = await this.find(shareId, auth);
    await this.run(share.id, ctx, { type: 'DenyAccess', accessId, now: new Date().toISOString() });
  }

  /** The rules of a share the caller may read, oldest first. */
  async accessRules(shareId: string, auth: AuthContext): Promise<AccessRuleDocument[]> {
    const share = await this.find(shareId, auth);
    return this.documents.find<AccessRuleDocument>(
      ACCESS_RULES,
      { share_id: share.id },
      {
        sort: [
          ['created_at', 1],
          ['id', 1],
        ],
      },
    );
  }

  /**
   * A rule on a share the caller may read; else the 404 of an unknown rule, which names the rule
   * only: a rule of another project's private share does not tell that share's id.
   */
  async findAccessRule(accessId: string, auth: AuthContext): Promise<AccessRuleDocument> {
    const rule = UUID.test(accessId)
      ? await this.documents.get<AccessRuleDocument>(ACCESS_RULES, accessId)
      : undefined;
    const share = rule && (await this.find(rule.share_id, auth).catch(unlessNotFound));
    if (!rule || !share) throw notFoundError(`Access rule ${accessId} could not be found.`);
    return rule;
  }

  /**
   * extend / shrink (reference 3.4). A non-forced extend waits for the scheduler's capacity
   * check on the share's pool (reference 6.9) before the node extends; an admin's `force`
   * (2.64) skips it. A shrink goes straight to the node.
   */
  async resize(
    shareId: string,
    direction: 'extend' | 'shrink',
    dto: ResizeShareDto,
    ctx: RequestContext,
    auth: AuthContext,
  ): Promise<void> {
    const share = await this.find(shareId, auth);
    const forced =
      direction === 'extend' &&
      dto.force !== undefined &&
      atLeast(ctx.microversion, '2.64') &&
      toBoolean(dto.force);
    if (forced) policyOf(ctx).enforce('share:force_extend');
    const newSize = toPositiveInteger(dto.new_size);
    if (newSize === undefined) {
      throw badRequest(`New share size must be an integer, not ${String(dto.new_size)}.`);
    }
    // One command id for the quota and the share, so the outcome finds the extend's adjustment.
    const commandContext = commandContextOf(ctx);
    const command: ShareCommand = {
      type: 'ResizeShare',
      direction,
      newSize,
      capacityCheck: direction === 'extend' && !forced,
      now: new Date().toISOString(),
    };
    // An extend counts its gigabytes before it starts (and gives them back if it is refused); a
    // shrink counts fewer once it has succeeded (the quota-release process manager).
    if (direction !== 'extend' || newSize <= share.size || share.status !== 'available') {
      return this.run(share.id, ctx, command, commandContext);
    }
    // Whatever the decision refuses is refused before anything is counted.
    await this.commands.decideOnly(shareDecider, shareStream(share.id), command);
    const resize = async () => {
      await this.run(
        share.id,
        ctx,
        command,
        commandContext,
        requestHolding(commandContext.commandId),
      );
      faultInjectionPoint('after-request-recorded:extend');
    };
    const instances = (await this.documents.get<ShareRecord>(SHARES, share.id))?.state.instances;
    const deltas = shareResizeDeltas(
      newSize - share.size,
      share.replication_type !== null,
      instances?.length ?? 1,
    );
    await this.quotas
      .adjustingFor(share.project_id, share.id, deltas, commandContext, resize)
      .catch((error: unknown) => {
        // Manila answers the gigabytes quota of an extend with 403, not 413 (reference 3.4).
        if (isOverGigabytesQuota(error)) throw forbiddenError(error.message);
        throw error;
      });
  }

  async findZone(idOrName: string): Promise<AvailabilityZoneDocument> {
    const zone =
      (await this.documents.get<AvailabilityZoneDocument>(AVAILABILITY_ZONES, idOrName)) ??
      (
        await this.documents.find<AvailabilityZoneDocument>(AVAILABILITY_ZONES, { name: idOrName })
      )[0];
    if (!zone) throw notFoundError(`Availability zone ${idOrName} could not be found.`);
    return zone;
  }

  /** From 2.48, a type that names zones refuses others (reference 3.4.1 step 8). */
  private checkTypeZones(
    type: ShareTypeDocument,
    zone: AvailabilityZoneDocument | undefined,
    ctx: RequestContext,
  ): void {
    const allowed = type.extra_specs.availability_zones;
    if (!allowed || !zone) return;
    const { major, minor } = ctx.microversion;
    if (major === 2 && minor < 48) return;
    if (!allowed.split(',').includes(zone.name)) {
      throw badRequest(
        `Share type ${type.name} is not supported within the availability zone chosen ${zone.name}.`,
      );
    }
  }

  private checkTypeSizes(type: ShareTypeDocument, size: number): void {
    const min = type.extra_specs['provisioning:min_share_size'];
    const max = type.extra_specs['provisioning:max_share_size'];
    if (min !== undefined && size < Number(min)) {
      throw badRequest(
        `Share size ${size} is smaller than the share type's minimum of ${min} GiB.`,
      );
    }
    if (max !== undefined && size > Number(max)) {
      throw badRequest(`Share size ${size} is larger than the share type's maximum of ${max} GiB.`);
    }
  }
}

/** Undefined for a 404, so a caller can answer its own; any other failure stands. */
const unlessNotFound = (error: unknown): undefined => {
  if (error instanceof ManilaHttpError && error.status === 404) return undefined;
  throw error;
};

const isOverGigabytesQuota = (error: unknown): error is Error =>
  error instanceof DomainError &&
  error.kind === 'over_limit' &&
  error.message.startsWith('ShareSizeExceedsAvailableQuota');
