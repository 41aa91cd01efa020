import { Inject, Injectable } from '@nestjs/common';
import {
  Command,
  CommandHandler,
  Query,
  QueryHandler,
  type ICommandHandler,
  type IQueryHandler,
} from '@nestjs/cqrs';
import { badRequest, ManilaHttpError, notFoundError } from '#hawser/api-contracts';
import {
  capabilitiesOf,
  parseBooleanSpec,
  type MigrationOptions,
  type MigrationShareType,
  type ShareCommand,
  type ActiveShare,
  type TaskState,
} from '#hawser/domain';
import { BACKENDS, type BackendDocument, type ShareDocument } from '#hawser/projections';
import { DOCUMENT_STORE, type DocumentStore } from '#hawser/read-models';
import { timeOrderedId } from '../time-ordered-id.js';
import type { Requester } from '../requester.js';
import { ShareTypeReads } from '../share-types/share-type-reads.js';
import { ShareChanges, ShareCommandHandler } from '../shares/share-changes.js';
import { ShareReads } from '../shares/share-reads.js';
import { brokenHints, SHARE_HINTS, type ShareHintsResolver } from './migration-hints.port.js';

const now = () => new Date().toISOString();

/** Hawser's rule for `force` in migration_start: migrate in spite of the share's hints. */
export const FORCE_MIGRATION_RULE = 'hawser:share:force_migration';

/** The body of `migration_start` (2.29+), checked by the route. */
export interface MigrationStartRequest extends MigrationOptions {
  readonly host: string;
  readonly newShareTypeId: string | null;
  readonly newShareNetworkId: string | null;
  /** Hawser's extension: migrate to a destination that breaks the share's hints. */
  readonly force: boolean;
}

/** `migration_start`: answers whether a migration started (202) or there was nothing to do (200). */
export class StartShareMigration extends Command<{ readonly started: boolean }> {
  constructor(
    readonly shareId: string,
    readonly request: MigrationStartRequest,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** `migration_complete`: the second phase. */
export class CompleteShareMigration extends Command<void> {
  constructor(
    readonly shareId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** `migration_cancel`: back to the source, before completion. */
export class CancelShareMigration extends Command<void> {
  constructor(
    readonly shareId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** `reset_task_state`: an admin sets the share's task state. */
export class ResetShareTaskState extends Command<void> {
  constructor(
    readonly shareId: string,
    readonly taskState: TaskState | null,
    readonly requester: Requester,
  ) {
    super();
  }
}

export interface MigrationProgress {
  readonly total_progress: number;
  readonly task_state: TaskState | null;
}

/** `migration_get_progress` (Manila's share_api.migration_get_progress). */
export class GetShareMigrationProgress extends Query<MigrationProgress> {
  constructor(
    readonly shareId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/**
 * Manila's checks of migration_start before anything is written, in its order: the share (404),
 * the new share network (Hawser has none: 400) and type (400), the destination service (404),
 * the type's zones, then the scheduler hints (400 naming the hint and the share, unless an
 * admin forces it, which the event records); the share's own checks follow in its decider.
 */
@CommandHandler(StartShareMigration)
@Injectable()
export class StartShareMigrationHandler implements ICommandHandler<StartShareMigration> {
  constructor(
    private readonly shares: ShareReads,
    private readonly changes: ShareChanges,
    private readonly shareTypes: ShareTypeReads,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(SHARE_HINTS) private readonly hints: ShareHintsResolver,
  ) {}

  async execute({ shareId, request, requester }: StartShareMigration) {
    const share = await this.shares.findFor(shareId, requester);
    if (request.newShareNetworkId) {
      throw badRequest(`Share network ${request.newShareNetworkId} not found.`);
    }
    const newShareType = request.newShareTypeId
      ? await this.newShareType(share, request.newShareTypeId, requester)
      : null;
    const backend = await this.destinationBackend(request.host);
    const typeSpecs = newShareType?.shareType.extraSpecs ?? (await this.currentSpecs(share.id));
    checkTypeZones(share.id, request.host, backend, typeSpecs, newShareType);
    const folded = (await this.shares.folded(share.id)) as ActiveShare;
    const broken = brokenHints(request.host, await this.hints.ofShare(folded));
    if (broken.length > 0 && request.host !== share.host) {
      if (!request.force) {
        const first = broken[0] as (typeof broken)[number];
        throw badRequest(
          `Cannot migrate share ${share.id} to ${request.host}: its scheduler hint ${first.hint} ` +
            `names share ${first.shareId}, which ${first.hint === 'same_host' ? 'is not' : 'is'} ` +
            `on that host. Use force to migrate in spite of the hints.`,
        );
      }
      requester.policy.enforce(FORCE_MIGRATION_RULE);
    }
    const command: ShareCommand = {
      type: 'StartShareMigration',
      destinationInstanceId: timeOrderedId(),
      host: request.host,
      availabilityZone: backend.availability_zone,
      options: {
        forceHostAssistedMigration: request.forceHostAssistedMigration,
        preserveMetadata: request.preserveMetadata,
        writable: request.writable,
        nondisruptive: request.nondisruptive,
        preserveSnapshots: request.preserveSnapshots,
      },
      newShareType,
      hintsOverride:
        broken.length > 0 && request.host !== share.host
          ? {
              userId: requester.caller.userId,
              projectId: requester.caller.projectId,
              broken,
            }
          : null,
      now: now(),
    };
    const result = await this.changes.run(share.id, command, requester.commandContext());
    return { started: result.events.some((e) => e.type === 'ShareMigrationStarted') };
  }

  private async newShareType(
    share: ShareDocument,
    typeId: string,
    requester: Requester,
  ): Promise<MigrationShareType> {
    let type;
    try {
      type = await this.shareTypes.find(typeId, requester.caller);
    } catch (error) {
      if (error instanceof ManilaHttpError && error.status === 404) {
        throw badRequest(`Share type ${typeId} not found.`);
      }
      throw error;
    }
    const specs = type.extra_specs;
    checkSizeLimits(share.size, specs);
    if (parseBooleanSpec(specs.driver_handles_share_servers ?? 'False')) {
      throw badRequest(
        `New share network must be provided when share type of given share ${share.id} has extra_spec 'driver_handles_share_servers' as True.`,
      );
    }
    return {
      shareType: { id: type.id, name: type.name, extraSpecs: { ...specs } },
      capabilities: capabilitiesOf(specs),
    };
  }

  private async currentSpecs(shareId: string): Promise<Readonly<Record<string, string>>> {
    return (await this.shares.folded(shareId))?.shareType?.extraSpecs ?? {};
  }

  /** Manila's validate_service_host: the destination's back end must be a known service. */
  private async destinationBackend(host: string): Promise<BackendDocument> {
    const service = host.split('#')[0] ?? host;
    const backend = await this.documents.get<BackendDocument>(BACKENDS, service);
    if (!backend) throw notFoundError(`Service ${service} could not be found.`);
    return backend;
  }
}

/** The share type's `availability_zones`, if any, must list the destination's zone. */
const checkTypeZones = (
  shareId: string,
  host: string,
  backend: BackendDocument,
  specs: Readonly<Record<string, string>>,
  newShareType: MigrationShareType | null,
): void => {
  const zones = (specs.availability_zones ?? '')
    .split(',')
    .map((zone) => zone.trim())
    .filter((zone) => zone !== '');
  if (zones.length === 0 || zones.includes(backend.availability_zone)) return;
  const type = newShareType?.shareType;
  throw badRequest(
    `Invalid share: Share ${shareId} cannot be migrated to host ${host} because share type ` +
      `${type ? `${type.name}(ID: ${type.id})` : ''} is not supported within the availability ` +
      `zone (${backend.availability_zone}) that the host is in.`,
  );
};

/** Manila's provision_filter_on_size for the new type. */
const checkSizeLimits = (size: number, specs: Readonly<Record<string, string>>): void => {
  const max = Number(specs['provisioning:max_share_size']);
  const min = Number(specs['provisioning:min_share_size']);
  if (Number.isInteger(min) && size < min) {
    throw badRequest(
      `Specified share size of '${size}' is less than the minimum required size of '${min}' for share type.`,
    );
  }
  if (Number.isInteger(max) && size > max) {
    throw badRequest(
      `Specified share size of '${size}' is greater than the maximum allowable size of '${max}' for share type.`,
    );
  }
};

@CommandHandler(CompleteShareMigration)
export class CompleteShareMigrationHandler
  extends ShareCommandHandler
  implements ICommandHandler<CompleteShareMigration, void>
{
  async execute({ shareId, requester }: CompleteShareMigration): Promise<void> {
    await this.change(shareId, requester, () => ({ type: 'CompleteShareMigration', now: now() }));
  }
}

@CommandHandler(CancelShareMigration)
export class CancelShareMigrationHandler
  extends ShareCommandHandler
  implements ICommandHandler<CancelShareMigration, void>
{
  async execute({ shareId, requester }: CancelShareMigration): Promise<void> {
    await this.change(shareId, requester, () => ({ type: 'CancelShareMigration', now: now() }));
  }
}

@CommandHandler(ResetShareTaskState)
export class ResetShareTaskStateHandler
  extends ShareCommandHandler
  implements ICommandHandler<ResetShareTaskState, void>
{
  async execute({ shareId, taskState, requester }: ResetShareTaskState): Promise<void> {
    await this.change(shareId, requester, () => ({
      type: 'ResetShareTaskState',
      taskState,
      now: now(),
    }));
  }
}

const DONE: ReadonlySet<TaskState> = new Set<TaskState>([
  'migration_success',
  'data_copying_error',
  'migration_cancelled',
  'migration_cancel_in_progress',
  'migration_completing',
  'migration_driver_phase1_done',
  'data_copying_completed',
  'data_copying_completing',
  'data_copying_cancelled',
  'migration_error',
]);

const STARTING: ReadonlySet<TaskState> = new Set<TaskState>([
  'migration_starting',
  'migration_driver_starting',
  'data_copying_starting',
  'migration_in_progress',
]);

/**
 * Manila's answer: the copy's real progress while it runs (from the bytes the destination
 * holds), 100 once a phase is over or the migration ended, 0 while starting; otherwise a 400
 * with the reason (reference: share_api.migration_get_progress).
 */
@QueryHandler(GetShareMigrationProgress)
export class GetShareMigrationProgressHandler implements IQueryHandler<
  GetShareMigrationProgress,
  MigrationProgress
> {
  constructor(private readonly shares: ShareReads) {}

  async execute({ shareId, requester }: GetShareMigrationProgress): Promise<MigrationProgress> {
    const share = await this.shares.find(shareId, requester.caller);
    const state = (await this.shares.folded(share.id)) as ActiveShare;
    const taskState = state.taskState ?? null;
    let total: number | null = null;
    if (taskState && DONE.has(taskState)) total = 100;
    else if (taskState && STARTING.has(taskState)) total = 0;
    else if (state.migration) total = state.migration.progress;
    if (total === null) {
      throw badRequest(
        `Invalid share: ${migrationMessage(share.id, taskState) ?? `Migration progress of share ${share.id} cannot be obtained at this moment.`}`,
      );
    }
    return { total_progress: total, task_state: taskState };
  }
}

const migrationMessage = (shareId: string, taskState: TaskState | null): string | null =>
  taskState === null || taskState === 'migration_error'
    ? `There is no migration being performed for share ${shareId} at this moment.`
    : null;

/** The migration use cases' handlers, for the application module. */
export const MIGRATION_HANDLERS = [
  StartShareMigrationHandler,
  CompleteShareMigrationHandler,
  CancelShareMigrationHandler,
  ResetShareTaskStateHandler,
  GetShareMigrationProgressHandler,
];
