import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { badRequest } from '#hawser/api-contracts';
import type { SnapshotDocument } from '#hawser/projections';
import { timeOrderedId } from '../time-ordered-id.js';
import { isObject, optionalText, stringDictionary, unprocessable } from '../request-body.js';
import { atLeast, type Requester } from '../requester.js';
import { ShareChanges } from '../shares/share-changes.js';
import { ShareReads } from '../shares/share-reads.js';
import { SnapshotReads } from './snapshot-reads.js';

/** POST /snapshots/manage (2.12+, admin): adopt a snapshot that exists on the share's back end. */
export class ManageSnapshot extends Command<SnapshotDocument> {
  constructor(
    /** The request body as sent (`{"snapshot": {...}}`). */
    readonly body: unknown,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** The snapshot `unmanage` action (2.12+, admin): let it go, its data kept on the back end. */
export class UnmanageSnapshot extends Command<void> {
  constructor(
    readonly snapshotId: string,
    readonly requester: Requester,
  ) {
    super();
  }
}

/** Manila's _validate_manage_parameters (422 for a missing or empty parameter), in its order. */
const manageParameters = (body: unknown) => {
  const data = isObject(body) ? body.snapshot : undefined;
  if (!isObject(data)) throw unprocessable('Snapshot entity not found in request body.');
  for (const key of ['share_id', 'provider_location']) {
    if (!(key in data)) throw unprocessable(`Required parameter ${key} not found.`);
    if (!data[key]) throw unprocessable(`Required parameter ${key} is empty.`);
  }
  const { share_id: shareId, provider_location: providerLocation } = data;
  if (typeof shareId !== 'string') throw badRequest('share_id must be a string.');
  if (typeof providerLocation !== 'string') {
    throw badRequest('provider_location must be a string.');
  }
  return { data, shareId, providerLocation };
};

/**
 * Manila's manage_snapshot (api/v2/share_snapshots.py, share/api.py): the share must exist; the
 * decider refuses a share with replicas or in the recycle bin and a provider location already
 * managed. The snapshot is the caller's (Manila takes the context's project and user), counted
 * once the driver reported its size.
 */
@CommandHandler(ManageSnapshot)
export class ManageSnapshotHandler implements ICommandHandler<ManageSnapshot, SnapshotDocument> {
  constructor(
    private readonly shares: ShareReads,
    private readonly snapshots: SnapshotReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ body, requester }: ManageSnapshot): Promise<SnapshotDocument> {
    const { data, shareId, providerLocation } = manageParameters(body);
    const caller = requester.caller;
    const share = await this.shares.find(shareId, caller);
    const snapshotId = timeOrderedId();
    await this.changes.run(
      share.id,
      {
        type: 'ManageSnapshot',
        snapshotId,
        projectId: caller.projectId,
        userId: caller.userId,
        name: optionalText(data, 'display_name', 'name'),
        description: optionalText(data, 'display_description', 'description'),
        // Metadata from 2.73, as Manila; earlier microversions ignore the key.
        metadata: atLeast(requester.version, '2.73')
          ? stringDictionary(data.metadata, 'metadata')
          : {},
        providerLocation,
        driverOptions: stringDictionary(data.driver_options, 'driver_options'),
        now: new Date().toISOString(),
      },
      requester.commandContext(),
    );
    return this.snapshots.find(snapshotId, caller);
  }
}

/** Manila's refusals (replicas 409, a transitional state 403) are the decider's. */
@CommandHandler(UnmanageSnapshot)
export class UnmanageSnapshotHandler implements ICommandHandler<UnmanageSnapshot, void> {
  constructor(
    private readonly snapshots: SnapshotReads,
    private readonly changes: ShareChanges,
  ) {}

  async execute({ snapshotId, requester }: UnmanageSnapshot): Promise<void> {
    const snapshot = await this.snapshots.find(snapshotId, requester.caller);
    await this.changes.run(
      snapshot.share_id,
      { type: 'UnmanageSnapshot', snapshotId: snapshot.id, now: new Date().toISOString() },
      requester.commandContext(),
    );
  }
}
