import {
  Command,
  CommandHandler,
  Query,
  QueryHandler,
  type ICommandHandler,
  type IQueryHandler,
} from '@nestjs/cqrs';
import {
  badRequest,
  type SnapshotAccessDocument,
  type SnapshotExportLocationDocument,
} from '#hawser/api-contracts';
import type { SnapshotAccessRuleState, SnapshotState } from '#hawser/domain';
import type { SnapshotDocument } from '#hawser/projections';
import { timeOrderedId } from '../time-ordered-id.js';
import { isObject } from '../request-body.js';
import { atLeast, type Caller, type Reader, type Requester } from '../requester.js';
import { ShareChanges } from '../shares/share-changes.js';
import { ShareReads } from '../shares/share-reads.js';
import { SnapshotReads } from './snapshot-reads.js';

/** The snapshot `allow_access` action (2.32+): a read-only rule, `queued_to_apply`. */
export class AllowSnapshotAccess extends Command<SnapshotAccessDocument> {
  constructor(
    readonly snapshotId: string,
    /** The action's argument as sent. */
    readonly argument: unknown,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** The snapshot `deny_access` action (2.32+). */
export class DenySnapshotAccess extends Command<void> {
  constructor(
    readonly snapshotId: string,
    readonly argument: unknown,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** GET /snapshots/{id}/access-list (2.32+). */
export class ListSnapshotAccess extends Query<SnapshotAccessDocument[]> {
  constructor(
    readonly snapshotId: string,
    readonly reader: Reader,
  ) {
    super();
  }
}

/** GET /snapshots/{id}/export-locations (2.32+): every instance's. */
export class ListSnapshotExportLocations extends Query<SnapshotExportLocationDocument[]> {
  constructor(
    readonly snapshotId: string,
    readonly reader: Reader,
  ) {
    super();
  }
}

/** Manila's _validate_parameters with fix_response: 400 for a missing or empty parameter. */
const required = (argument: unknown, keys: readonly string[]): Record<string, string> => {
  if (!isObject(argument)) throw badRequest('Access data not found in request body.');
  for (const key of keys) {
    if (!(key in argument)) throw badRequest(`Required parameter ${key} not found.`);
    if (!argument[key]) throw badRequest(`Required parameter ${key} is empty.`);
    if (typeof argument[key] !== 'string') throw badRequest(`${key} must be a string.`);
  }
  return argument as Record<string, string>;
};

const accessDocument = (rule: SnapshotAccessRuleState): SnapshotAccessDocument => ({
  id: rule.id,
  access_type: rule.accessType,
  access_to: rule.accessTo,
  state: rule.state,
});

/** A snapshot the caller may see, with its state as its share's stream holds it. */
const snapshotState = async (
  snapshots: SnapshotReads,
  shares: ShareReads,
  snapshotId: string,
  caller: Caller,
): Promise<{ doc: SnapshotDocument; snapshot: SnapshotState | undefined; mountable: boolean }> => {
  const doc = await snapshots.find(snapshotId, caller);
  const state = await shares.folded(doc.share_id);
  if (state?.kind !== 'active') return { doc, snapshot: undefined, mountable: false };
  return {
    doc,
    snapshot: state.snapshots.find((s) => s.id === doc.id),
    mountable: Boolean(state.capabilities?.mountSnapshotSupport),
  };
};

/** Manila's _check_mount_snapshot_support, for reads too (400). */
const requireMountable = (doc: SnapshotDocument, mountable: boolean): void => {
  if (!mountable) {
    throw badRequest(
      `Cannot control access to the snapshot ${doc.id} since the parent share ${doc.share_id} does not support mounting its snapshots.`,
    );
  }
};

@CommandHandler(AllowSnapshotAccess)
export class AllowSnapshotAccessHandler implements ICommandHandler<
  AllowSnapshotAccess,
  SnapshotAccessDocument
> {
  constructor(
    private readonly snapshots: SnapshotReads,
    private readonly changes: ShareChanges,
  ) {}

  /** Answers the rule as recorded: new rules are `queued_to_apply` until the node applies them. */
  async execute({ snapshotId, argument, requester }: AllowSnapshotAccess) {
    const data = required(argument, ['access_type', 'access_to']);
    const doc = await this.snapshots.find(snapshotId, requester.caller);
    const accessId = timeOrderedId();
    await this.changes.run(
      doc.share_id,
      {
        type: 'AllowSnapshotAccess',
        snapshotId: doc.id,
        accessId,
        accessType: data.access_type as string,
        accessTo: data.access_to as string,
        ipv6: atLeast(requester.version, '2.38'),
        now: new Date().toISOString(),
      },
      requester.commandContext(),
    );
    return {
      id: accessId,
      access_type: data.access_type as string,
      access_to: data.access_to as string,
      state: 'queued_to_apply',
    };
  }
}

@CommandHandler(DenySnapshotAccess)
export class DenySnapshotAccessHandler implements ICommandHandler<DenySnapshotAccess, void> {
  constructor(
    private readonly snapshots: SnapshotReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ snapshotId, argument, requester }: DenySnapshotAccess): Promise<void> {
    const data = required(argument, ['access_id']);
    const doc = await this.snapshots.find(snapshotId, requester.caller);
    await this.changes.run(
      doc.share_id,
      {
        type: 'DenySnapshotAccess',
        snapshotId: doc.id,
        accessId: data.access_id as string,
        now: new Date().toISOString(),
      },
      requester.commandContext(),
    );
  }
}

@QueryHandler(ListSnapshotAccess)
export class ListSnapshotAccessHandler implements IQueryHandler<
  ListSnapshotAccess,
  SnapshotAccessDocument[]
> {
  constructor(
    private readonly snapshots: SnapshotReads,
    private readonly shares: ShareReads,
  ) {}

  async execute({ snapshotId, reader }: ListSnapshotAccess): Promise<SnapshotAccessDocument[]> {
    const found = await snapshotState(this.snapshots, this.shares, snapshotId, reader.caller);
    const { doc, snapshot, mountable } = found;
    requireMountable(doc, mountable);
    return (snapshot?.accessRules ?? []).map(accessDocument);
  }
}

@QueryHandler(ListSnapshotExportLocations)
export class ListSnapshotExportLocationsHandler implements IQueryHandler<
  ListSnapshotExportLocations,
  SnapshotExportLocationDocument[]
> {
  constructor(
    private readonly snapshots: SnapshotReads,
    private readonly shares: ShareReads,
  ) {}

  async execute({ snapshotId, reader }: ListSnapshotExportLocations) {
    const { snapshot } = await snapshotState(
      this.snapshots,
      this.shares,
      snapshotId,
      reader.caller,
    );
    return (snapshot?.instances ?? []).flatMap((i) =>
      (i.exportLocations ?? []).map((l) => ({
        id: l.id,
        path: l.path,
        is_admin_only: l.isAdminOnly,
        share_snapshot_instance_id: i.id,
        created_at: i.createdAt,
        updated_at: i.updatedAt,
      })),
    );
  }
}
