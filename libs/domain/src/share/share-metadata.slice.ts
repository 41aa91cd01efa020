import { withChanges } from '../shared/string-map.js';
import { validateShareMetadata } from './share-metadata.js';
import type { ShareCommandOf } from './share.commands.js';
import type { ShareEvent, ShareMetadataChanged, ShareUpdated } from './share.events.js';
import { activeShareSlice } from './share.slice.js';
import type { ActiveShare } from './share.state.js';

/** Name, description and visibility: only what the command names changes. */
export const updateShare = (command: ShareCommandOf<'UpdateShare'>): ShareEvent[] => {
  if (
    command.name === undefined &&
    command.description === undefined &&
    command.isPublic === undefined
  ) {
    return [];
  }
  return [
    {
      type: 'ShareUpdated',
      data: {
        ...(command.name !== undefined && { name: command.name }),
        ...(command.description !== undefined && { description: command.description }),
        ...(command.isPublic !== undefined && { isPublic: command.isPublic }),
        updatedAt: command.now,
      },
    },
  ];
};

/** Keys set, and keys unset that the share has and the same command does not set again. */
export const changeShareMetadata = (
  command: ShareCommandOf<'ChangeShareMetadata'>,
  state: ActiveShare,
): ShareEvent[] => {
  validateShareMetadata(command.set);
  const unset = command.unset.filter(
    (key) => Object.hasOwn(state.metadata, key) && !Object.hasOwn(command.set, key),
  );
  if (Object.keys(command.set).length === 0 && unset.length === 0) return [];
  return [
    { type: 'ShareMetadataChanged', data: { set: command.set, unset, updatedAt: command.now } },
  ];
};

export const shareUpdated = (state: ActiveShare, { data }: ShareUpdated): ActiveShare => ({
  ...state,
  name: data.name === undefined ? state.name : data.name,
  description: data.description === undefined ? state.description : data.description,
  isPublic: data.isPublic ?? state.isPublic,
});

export const shareMetadataChanged = (
  state: ActiveShare,
  { data }: ShareMetadataChanged,
): ActiveShare => ({ ...state, metadata: withChanges(state.metadata, data.set, data.unset) });

/** What a user says of a share: its name, description, visibility and metadata. */
export const metadataSlice = activeShareSlice<
  ShareCommandOf<'UpdateShare' | 'ChangeShareMetadata'>,
  ShareUpdated | ShareMetadataChanged
>({
  commandTypes: ['UpdateShare', 'ChangeShareMetadata'],
  eventTypes: ['ShareUpdated', 'ShareMetadataChanged'],
  decide: (command, state) =>
    command.type === 'UpdateShare' ? updateShare(command) : changeShareMetadata(command, state),
  evolve: (state, event) =>
    event.type === 'ShareUpdated' ? shareUpdated(state, event) : shareMetadataChanged(state, event),
});
