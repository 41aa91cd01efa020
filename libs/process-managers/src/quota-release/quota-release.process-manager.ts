import type { CommandContext, CommandHandler } from '#hawser/application';
import {
  derivedId,
  evolveShare,
  initialShareState,
  MANILA_DEFAULT_QUOTAS,
  quotaDecider,
  quotaStream,
  SHARE_STREAM_PREFIX,
  shareResizeDeltas,
  type QuotaCommand,
  type ReplicaDeleted,
  type ShareEvent,
  type ShareState,
  type SnapshotDeleted,
} from '#hawser/domain';
import type { Decoded, EventStore, RecordedEvent } from '#hawser/eventstore';
import { shareEvents } from '../../../../eventstore/decoders.js';
import type { ProcessManager } from '../runtime/process-manager.js';
import { reactionContext } from '../runtime/reaction-context.js';

/**
 * A project's quota follows what happens to its shares and snapshots after the request:
 * - ShareDeleted releases the share's holder, in the project the share was requested in;
 * - SnapshotDeleted releases the snapshot's holder, in the project that requested it;
 * - ReplicaDeleted releases the replica holder it names, in the share's project;
 * - an extend that ends without the new size (the driver failed, the scheduler found no room,
 *   or an admin's reset took its instances out before a node started) gives back what its
 *   request counted;
 * - a shrink that ends with the smaller size counts fewer gigabytes (Manila commits a shrink's
 *   quota only on success).
 * Command ids derive from the event, and the quota counts each holder and adjustment once, so a
 * replay changes nothing twice.
 */
export const quotaReleaseProcessManager = (
  events: EventStore,
  commands: CommandHandler,
  clock: () => string = () => new Date().toISOString(),
): ProcessManager => {
  const onQuota = (event: RecordedEvent, command: QuotaCommand): Promise<unknown> =>
    commands.handle(
      quotaDecider,
      quotaStream(command.projectId),
      command,
      contextOf(event, command.projectId),
      { retryOnConflict: 50 },
    );

  return {
    name: 'quota-release',
    filter: {
      streamPrefixes: [SHARE_STREAM_PREFIX],
      eventTypes: [
        'ShareDeleted',
        'SnapshotDeleted',
        'ReplicaDeleted',
        'ShareInstanceResized',
        'ShareInstanceResizeFailed',
        'ShareExtendRefused',
        // An admin's reset can end a resize no node had started.
        'ShareStatusReset',
      ],
    },
    async handle(recorded: RecordedEvent): Promise<void> {
      const event = shareEvents.decode(recorded);
      switch (event.type) {
        case 'ShareDeleted':
        case 'ReplicaDeleted': {
          const holderId =
            event.type === 'ShareDeleted' ? event.data.shareId : event.data.quotaHolderId;
          if (holderId === null) return;
          const first = (await readShare(events, event.streamId, 1))[0];
          if (first?.type !== 'ShareRequested') return;
          const { projectId } = first.data;
          if (event.type === 'ReplicaDeleted') {
            await settleReplicaResizes(commands, event, projectId, holderId, clock());
          }
          await onQuota(event, { type: 'ReleaseQuota', projectId, holderId, now: clock() });
          return;
        }
        case 'SnapshotDeleted': {
          const { snapshotId } = event.data;
          const projectId = await snapshotProject(events, event);
          if (projectId === undefined) return;
          await onQuota(event, {
            type: 'ReleaseQuota',
            projectId,
            holderId: snapshotId,
            now: clock(),
          });
          return;
        }
        default: {
          const command = await resizeOutcome(events, event, clock());
          if (command) await onQuota(event, command);
        }
      }
    },
  };
};

/** The first `count` events of a share's stream, decoded. */
const readShare = async (
  events: EventStore,
  streamId: string,
  count: number,
): Promise<Decoded<ShareEvent>[]> =>
  (await events.readStream(streamId, { maxCount: count })).map((e) => shareEvents.decode(e));

/**
 * The project that requested the deleted snapshot: on the event since v2 carries it, found in
 * the share's history for events written at v1 (whose upcast names no project: v1 never had it).
 */
const snapshotProject = async (
  events: EventStore,
  event: Decoded<SnapshotDeleted>,
): Promise<string | undefined> => {
  const { snapshotId, projectId } = event.data;
  if (projectId !== null) return projectId;
  const history = await readShare(events, event.streamId, event.revision + 1);
  for (const e of history) {
    if (e.type === 'SnapshotRequested' && e.data.snapshotId === snapshotId) return e.data.projectId;
  }
  return undefined;
};

/**
 * A replica holder counts the share's size when the replica was added; extends and shrinks
 * since then were counted on the share's holder for every replica (reference 5.9). Before the
 * holder goes, the share's holder gives back (or takes) the difference for this replica, so the
 * replica's gigabytes are released exactly. Done first, so a replay still sees the holder.
 */
const settleReplicaResizes = async (
  commands: CommandHandler,
  event: Decoded<ReplicaDeleted>,
  projectId: string,
  holderId: string,
  now: string,
): Promise<void> => {
  const { state } = await commands.load(quotaDecider, quotaStream(projectId));
  const reserved = state.holdings[holderId]?.deltas.replica_gigabytes;
  const { shareSize } = event.data;
  if (reserved === undefined || reserved === shareSize) return;
  const shareId = event.streamId.slice(SHARE_STREAM_PREFIX.length);
  if (!state.holdings[shareId]) return;
  await commands.handle(
    quotaDecider,
    quotaStream(projectId),
    {
      type: 'AdjustQuota',
      projectId,
      holderId: shareId,
      adjustmentId: derivedId(event.id, 'replica-resizes'),
      deltas: { replica_gigabytes: reserved - shareSize },
      defaults: MANILA_DEFAULT_QUOTAS,
      now,
    },
    { ...contextOf(event, projectId), commandId: derivedId(event.id, 'quota-replica-resizes') },
    { retryOnConflict: 50 },
  );
};

/** The quota change a resize outcome calls for, once the share's resize is over. */
const resizeOutcome = async (
  events: EventStore,
  event: RecordedEvent,
  now: string,
): Promise<QuotaCommand | undefined> => {
  const history = await readShare(events, event.streamId, event.revision + 1);
  let before: ShareState = initialShareState();
  let after: ShareState = before;
  let resizeRequest: RecordedEvent | undefined;
  for (const recorded of history) {
    before = after;
    after = evolveShare(after, recorded);
    if (recorded.type === 'ShareResizeRequested') resizeRequest = recorded;
  }
  if (before.kind === 'absent' || after.kind === 'absent') return undefined;
  const resize = before.pendingResize;
  if (!resize || after.pendingResize || !resizeRequest) return undefined;
  const sizeChange = after.size - before.size;
  if (resize.direction === 'extend' && sizeChange === 0) {
    return {
      type: 'RevertQuotaAdjustment',
      projectId: after.projectId,
      holderId: after.id,
      // The API counted the extend under its command's id.
      adjustmentId: resizeRequest.metadata.commandId ?? resizeRequest.id,
      now,
    };
  }
  if (resize.direction === 'shrink' && sizeChange < 0) {
    return {
      type: 'AdjustQuota',
      projectId: after.projectId,
      holderId: after.id,
      adjustmentId: derivedId(resizeRequest.id, 'shrink'),
      deltas: shareResizeDeltas(
        sizeChange,
        Boolean(after.capabilities?.replicationType),
        after.instances.length,
      ),
      // A decrease is checked against no limit.
      defaults: MANILA_DEFAULT_QUOTAS,
      now,
    };
  }
  return undefined;
};

const contextOf = (event: RecordedEvent, projectId: string): CommandContext => ({
  ...reactionContext(event, 'quota', 'quota'),
  projectId,
});
