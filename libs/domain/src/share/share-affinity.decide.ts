import type { AffinityCommand } from './share-affinity.commands.js';
import { AFFINITY_KEYS, linkedShareIds } from './share-affinity.js';
import type { ShareMetadataChanged } from './share.events.js';
import type { ActiveShare } from './share.state.js';

/**
 * Adds or removes a share id in the list one hint's key holds. Both are idempotent by state (a
 * listed id is not added twice, an absent one not removed), so a replayed command decides
 * nothing; an emptied list removes the key. Lists are written by Hawser, not typed by users, so
 * the metadata value length limit does not apply to them.
 */
export const decideAffinity = (
  command: AffinityCommand,
  state: ActiveShare,
): ShareMetadataChanged[] => {
  const key = AFFINITY_KEYS[command.hint];
  const ids = linkedShareIds(state.metadata[key]);
  const listed = ids.includes(command.shareId);
  if (command.type === 'LinkAffinity') {
    if (listed || command.shareId === state.id) return [];
    return [changed({ [key]: [...ids, command.shareId].join(',') }, [], command.now)];
  }
  if (!listed) return [];
  const rest = ids.filter((id) => id !== command.shareId);
  return [
    rest.length > 0
      ? changed({ [key]: rest.join(',') }, [], command.now)
      : changed({}, [key], command.now),
  ];
};

const changed = (
  set: Record<string, string>,
  unset: string[],
  updatedAt: string,
): ShareMetadataChanged => ({ type: 'ShareMetadataChanged', data: { set, unset, updatedAt } });
