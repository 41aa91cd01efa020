import type { ShareEvent } from './share.events.js';
import type { FromSnapshotCommand } from './share-from-snapshot.commands.js';
import type { SnapshotSource } from './share-from-snapshot.types.js';
import type { ActiveShare, ShareInstanceState } from './share.state.js';
import { invalid } from '../shared/domain-error.js';

/** Manila's progress strings: a whole percentage between 0 and 100. */
export const progressText = (percent: number): string =>
  `${Math.min(100, Math.max(0, Math.floor(percent)))}%`;

/**
 * What a share created from a snapshot records on top of its request: a clone not smaller than
 * the snapshot, and, when the scheduler is not used, its placement on the source's pool at once
 * (reference 4.1, 4.2).
 */
export const decideSnapshotSourcePlacement = (
  request: { instanceId: string; size: number; snapshotId: string | null; createdAt: string },
  source: SnapshotSource,
): ShareEvent[] => {
  if (request.snapshotId !== source.snapshotId) {
    throw invalid(`The snapshot source does not describe snapshot ${String(request.snapshotId)}.`);
  }
  if (request.size < source.size) {
    throw invalid(
      `Share size (${request.size} GiB) cannot be smaller than the snapshot size (${source.size} GiB).`,
    );
  }
  if (source.placement === 'scheduler') return [];
  return [
    {
      type: 'ShareScheduled',
      data: {
        instanceId: request.instanceId,
        host: source.host,
        availabilityZone: source.availabilityZone ?? '',
        size: request.size,
        scheduledAt: request.createdAt,
      },
    },
  ];
};

/** The driver's first answer: the creation goes on asynchronously, at 0%. */
const recordShareCreationDeferred = (
  command: Extract<FromSnapshotCommand, { type: 'RecordShareCreationDeferred' }>,
  instance: ShareInstanceState | undefined,
): ShareEvent[] => {
  if (instance?.pendingOperation?.commandId !== command.commandId) return [];
  return [
    {
      type: 'ShareCreationDeferred',
      data: {
        instanceId: instance.id,
        commandId: command.commandId,
        progress: '0%',
        answeredAt: command.now,
      },
    },
  ];
};

/** One poll of get_share_status: created, failed, or further along. */
const recordShareStatusPoll = (
  command: Extract<FromSnapshotCommand, { type: 'RecordShareStatusPoll' }>,
  instance: ShareInstanceState | undefined,
): ShareEvent[] => {
  if (instance?.status !== 'creating_from_snapshot') return [];
  if (command.status === 'available') {
    return [
      {
        type: 'ShareCreated',
        data: {
          instanceId: instance.id,
          commandId: command.pollId,
          exportLocations: command.exportLocations,
          createdAt: command.now,
        },
      },
    ];
  }
  if (command.status === 'error') {
    return [
      {
        type: 'ShareCreationFailed',
        data: {
          instanceId: instance.id,
          commandId: command.pollId,
          message: command.message ?? 'Driver failed to create the share from the snapshot.',
          failedAt: command.now,
        },
      },
    ];
  }
  if (command.progress === null) return [];
  const progress = progressText(command.progress);
  if (progress === instance.progress) return [];
  return [
    {
      type: 'ShareCreationProgressed',
      data: { instanceId: instance.id, progress, progressedAt: command.now },
    },
  ];
};

/**
 * The asynchronous end of creating from a snapshot (reference 4.5): the driver's first answer,
 * then each poll of get_share_status. Outcomes that no longer apply (the instance moved on, a
 * poll repeated) decide nothing.
 */
export const decideFromSnapshot = (
  command: FromSnapshotCommand,
  state: ActiveShare,
): ShareEvent[] => {
  const instance = state.instances.find((i) => i.id === command.instanceId);
  return command.type === 'RecordShareCreationDeferred'
    ? recordShareCreationDeferred(command, instance)
    : recordShareStatusPoll(command, instance);
};
