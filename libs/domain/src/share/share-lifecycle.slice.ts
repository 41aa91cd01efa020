import { conflict, invalid } from '../shared/domain-error.js';
import { decideSnapshotSourcePlacement } from './share-from-snapshot.decide.js';
import { validateShareMetadata } from './share-metadata.js';
import type { ShareCommandOf } from './share.commands.js';
import type { ReservationExpired, ShareEvent, ShareRequested } from './share.events.js';
import type { ShareSlice } from './share.slice.js';
import { newShareInstance, type ActiveShare, type ShareState } from './share.state.js';

/**
 * A share's coming into being, and the fence an expired quota reservation leaves on its stream
 * (which may come before the share, while it exists, or after it is gone). The only slice that
 * sees an absent share; its deletion is the deletion slice's.
 */
export const requestShare = (
  command: ShareCommandOf<'RequestShare'>,
  state: ShareState,
): ShareEvent[] => {
  if (state.kind !== 'absent') throw conflict(`Share ${command.shareId} exists already.`);
  if (!Number.isInteger(command.size) || command.size < 1) {
    throw invalid(`Share size must be a positive integer, not ${String(command.size)}.`);
  }
  validateShareMetadata(command.metadata);
  const { type: _type, ...data } = command;
  const placement = data.snapshotSource
    ? decideSnapshotSourcePlacement(data, data.snapshotSource)
    : [];
  return [{ type: 'ShareRequested', data }, ...placement];
};

/** Whatever the stream held before, the request starts the share afresh. */
export const shareRequested = ({ data: d }: ShareRequested): ActiveShare => ({
  kind: 'active',
  id: d.shareId,
  projectId: d.projectId,
  userId: d.userId,
  name: d.name,
  description: d.description,
  size: d.size,
  shareProto: d.shareProto,
  shareType: d.shareType,
  capabilities: d.capabilities,
  requestedAvailabilityZone: d.availabilityZone,
  metadata: d.metadata,
  isPublic: d.isPublic,
  snapshotId: d.snapshotId,
  snapshotSource: d.snapshotSource ?? null,
  schedulerHints: d.schedulerHints,
  createdAt: d.createdAt,
  instances: [newShareInstance(d.instanceId, 'creating', '', d.availabilityZone, d.createdAt)],
  snapshots: [],
  accessRules: [],
  pendingResize: null,
});

export const reservationExpired = (state: ShareState, event: ReservationExpired): ShareState => ({
  ...state,
  expiredReservations: [...(state.expiredReservations ?? []), event.data.reservationId],
});

type LifecycleEvent = ShareRequested | ReservationExpired;

export const lifecycleSlice: ShareSlice<ShareCommandOf<'RequestShare'>, LifecycleEvent> = {
  commandTypes: ['RequestShare'],
  eventTypes: ['ShareRequested', 'ReservationExpired'],
  decide: requestShare,
  evolve: (state, event) =>
    event.type === 'ShareRequested' ? shareRequested(event) : reservationExpired(state, event),
};
