import type { ShareEvent } from './share.events.js';
import { shareTable } from './share.slices.js';
import type { ActiveShare, ShareState } from './share.state.js';

/** A share state as read models stored it before the state was a union: a `lifecycle` field. */
interface StoredBeforeUnion {
  readonly lifecycle: 'absent' | 'active' | 'deleted';
}

/**
 * States that read models stored earlier may lack what came later: the union's `kind` (they had
 * a `lifecycle` field), snapshots, access rules and resizing (which start empty). Read as the
 * state they stand for, an existing data directory keeps working.
 */
const fromStored = (stored: ShareState): ShareState => {
  const legacy = stored as Partial<StoredBeforeUnion> & Partial<ActiveShare>;
  if (legacy.kind === undefined && legacy.lifecycle !== undefined) {
    const { lifecycle, ...rest } = legacy;
    if (lifecycle === 'absent') {
      return rest.expiredReservations
        ? { kind: 'absent', expiredReservations: rest.expiredReservations }
        : { kind: 'absent' };
    }
    return fromStored({ ...(rest as ActiveShare), kind: lifecycle });
  }
  if (stored.kind === 'absent' || stored.snapshots) return stored;
  return { ...stored, snapshots: [], accessRules: [], pendingResize: null };
};

/** Folds one event into the share's state, through the slice that owns the event's type. */
export const evolveShare = (stored: ShareState, event: ShareEvent): ShareState =>
  shareTable.evolve(event.type === 'ShareRequested' ? stored : fromStored(stored), event);
