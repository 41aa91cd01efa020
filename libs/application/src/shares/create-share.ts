import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  badRequest,
  invalidInput,
  notFoundError,
  strictBoolean,
  toPositiveInteger,
  type CreateShareDto,
} from '#hawser/api-contracts';
import {
  capabilitiesOf,
  derivedId,
  parseBoolean,
  requestHolding,
  shareCreationDeltas,
  type ShareCommand,
} from '#hawser/domain';
import type {
  AvailabilityZoneDocument,
  ShareDocument,
  ShareTypeDocument,
} from '#hawser/projections';
import { timeOrderedId } from '../time-ordered-id.js';
import { faultInjectionPoint } from '../fault-injection.js';
import { QuotaReservations, type QuotaHolder } from '../quotas/quota-reservations.js';
import { atLeast, type ApiVersion, type Requester } from '../requester.js';
import { ShareTypeReads } from '../share-types/share-type-reads.js';
import { USE_CASE_SETTINGS, type UseCaseSettings } from '../use-case-settings.js';
import { invalidShareSize, pythonList } from './create-share-refusals.js';
import { createHintsOf } from './scheduler-hints.js';
import { ShareChanges } from './share-changes.js';
import { ShareReads } from './share-reads.js';
import { SnapshotSources, type ResolvedSnapshotSource } from './snapshot-source.js';

/** POST /shares without a snapshot (reference 3.4.1): a new, empty share. */
export class CreateShare extends Command<ShareDocument> {
  constructor(
    readonly request: CreateShareDto,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** POST /shares with `snapshot_id` (reference 4.1): a new share holding a snapshot's data. */
export class CreateShareFromSnapshot extends Command<ShareDocument> {
  constructor(
    readonly request: CreateShareDto & { readonly snapshot_id: string },
    readonly requester: Requester,
  ) {
    super();
  }
}

/**
 * The steps both creates share, in Manila's order: checks on the request, its type, zone and
 * source (each a 4xx that changes nothing), the share's own decision, then the quota reservation,
 * then the request recorded on the new share's stream holding that reservation.
 */
@Injectable()
export class ShareCreation {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
    private readonly shareTypes: ShareTypeReads,
    private readonly quotas: QuotaReservations,
    @Inject(USE_CASE_SETTINGS) private readonly settings: UseCaseSettings,
  ) {}

  async create(
    dto: CreateShareDto,
    requester: Requester,
    sourceOf?: (zone: AvailabilityZoneDocument | undefined) => Promise<ResolvedSnapshotSource>,
  ): Promise<ShareDocument> {
    const auth = requester.caller;
    const isPublic = dto.is_public === undefined ? false : strictBoolean(dto.is_public);
    if (isPublic) requester.policy.enforce('share:create_public_share');
    const zone = dto.availability_zone
      ? await this.shares.findZone(dto.availability_zone)
      : undefined;
    if (dto.share_network_id) {
      throw notFoundError(`Share network ${dto.share_network_id} could not be found.`);
    }
    // Manila drops the key before 2.31 and looks the group up from then on.
    if (dto.share_group_id && atLeast(requester.version, '2.31')) {
      throw notFoundError(`Share group ${dto.share_group_id} could not be found.`);
    }
    if (dto.share_type && dto.volume_type) {
      throw badRequest('Only one of share_type and volume_type may be given.');
    }
    const clone = sourceOf && (await sourceOf(zone));
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
    checkTypeZones(shareType, zone, requester.version);
    const size = clone?.size ?? toPositiveInteger(dto.size);
    if (size === undefined || size < 1) {
      throw invalidShareSize(dto.size);
    }
    checkTypeSizes(shareType, size);
    const proto = dto.share_proto.toUpperCase();
    if (!this.settings.enabledShareProtocols.includes(proto)) {
      throw invalidInput(
        `Invalid share protocol provided: ${dto.share_proto}. It is either disabled or unsupported. ` +
          `Available protocols: ${pythonList(this.settings.enabledShareProtocols)}.`,
      );
    }

    const hints = await createHintsOf(dto, requester, (id) => this.shares.find(id, auth));

    const shareId = timeOrderedId();
    const request: ShareCommand = {
      type: 'RequestShare',
      shareId,
      instanceId: timeOrderedId(),
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
    // The id is new, so neither the decision nor the record reads the share's (empty) stream.
    await this.changes.decideOnly(shareId, request, { newStream: true });
    // The quota counts the share before it exists; a request that then fails gives it back.
    const quotaContext = requester.commandContext();
    const replicated = Boolean(shareType.extra_specs.replication_type);
    const holder: QuotaHolder = {
      projectId: auth.projectId,
      userId: auth.userId,
      shareTypeId: shareType.id,
      holderId: shareId,
      holderKind: 'share',
      deltas: shareCreationDeltas(size, replicated),
    };
    await this.quotas.reserve(holder, shareId, quotaContext);
    const requested = this.changes.record(shareId, request, requester.commandContext(), {
      decider: requestHolding(shareId),
      newStream: true,
    });
    const result = await requested.catch(async (error: unknown) => {
      const releaseId = derivedId(quotaContext.commandId, 'release');
      await this.quotas.release(holder, { ...quotaContext, commandId: releaseId });
      throw error;
    });
    faultInjectionPoint('after-request-recorded:share');
    await this.changes.shown(result);
    return this.shares.find(shareId, auth);
  }
}

/** From 2.48, a type that names zones refuses others (reference 3.4.1 step 8). */
const checkTypeZones = (
  type: ShareTypeDocument,
  zone: AvailabilityZoneDocument | undefined,
  version: ApiVersion,
): void => {
  const allowed = type.extra_specs.availability_zones;
  if (!allowed || !zone) return;
  if (version.major === 2 && version.minor < 48) return;
  if (!allowed.split(',').includes(zone.name)) {
    throw badRequest(
      `Share type ${type.name} is not supported within the availability zone chosen ${zone.name}.`,
    );
  }
};

const checkTypeSizes = (type: ShareTypeDocument, size: number): void => {
  const min = type.extra_specs['provisioning:min_share_size'];
  const max = type.extra_specs['provisioning:max_share_size'];
  if (min !== undefined && size < Number(min)) {
    throw badRequest(`Share size ${size} is smaller than the share type's minimum of ${min} GiB.`);
  }
  if (max !== undefined && size > Number(max)) {
    throw badRequest(`Share size ${size} is larger than the share type's maximum of ${max} GiB.`);
  }
};

@CommandHandler(CreateShare)
export class CreateShareHandler implements ICommandHandler<CreateShare, ShareDocument> {
  constructor(private readonly creation: ShareCreation) {}

  execute({ request, requester }: CreateShare): Promise<ShareDocument> {
    return this.creation.create(request, requester);
  }
}

@CommandHandler(CreateShareFromSnapshot)
export class CreateShareFromSnapshotHandler implements ICommandHandler<
  CreateShareFromSnapshot,
  ShareDocument
> {
  constructor(
    private readonly creation: ShareCreation,
    private readonly sources: SnapshotSources,
  ) {}

  execute({ request, requester }: CreateShareFromSnapshot): Promise<ShareDocument> {
    return this.creation.create(request, requester, (zone) =>
      this.sources.resolve(request, zone, requester.version, requester.caller),
    );
  }
}
