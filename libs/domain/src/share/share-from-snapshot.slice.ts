import type { FromSnapshotCommand } from './share-from-snapshot.commands.js';
import { decideFromSnapshot } from './share-from-snapshot.decide.js';
import type { FromSnapshotEvent } from './share-from-snapshot.events.js';
import { evolveFromSnapshot } from './share-from-snapshot.evolve.js';
import { activeShareSlice } from './share.slice.js';

/** A share created from a snapshot: its creation deferred, its progress polled. */
export const fromSnapshotSlice = activeShareSlice<FromSnapshotCommand, FromSnapshotEvent>({
  commandTypes: ['RecordShareCreationDeferred', 'RecordShareStatusPoll'],
  eventTypes: ['ShareCreationDeferred', 'ShareCreationProgressed'],
  decide: decideFromSnapshot,
  evolve: evolveFromSnapshot,
});
