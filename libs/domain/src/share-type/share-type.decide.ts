import { assertNever, type Decider } from '../shared/decider.js';
import { conflict, forbidden, invalid, notFound } from '../shared/domain-error.js';
import { normaliseExtraSpecs, REQUIRED_SPEC, validateExtraSpecs } from './extra-specs.js';
import type { ShareTypeCommand } from './share-type.commands.js';
import type { ShareTypeEvent } from './share-type.events.js';
import { evolveShareType, initialShareTypeState, type ShareTypeState } from './share-type.state.js';

const validateName = (name: string) => {
  if (name.trim().length === 0 || name.length > 255) {
    throw invalid('Share type name must be a non-empty string of at most 255 characters.');
  }
};
const validateDescription = (description: string | null | undefined) => {
  if (description && description.length > 255) {
    throw invalid('Share type description must be at most 255 characters.');
  }
};

export const decideShareType = (
  command: ShareTypeCommand,
  state: ShareTypeState,
): ShareTypeEvent[] => {
  if (command.type === 'CreateShareType') {
    if (state.status !== 'absent') throw conflict(`Share type ${command.shareTypeId} exists.`);
    validateName(command.name);
    validateDescription(command.description);
    validateExtraSpecs(command.extraSpecs, { requireDhss: true });
    return [
      {
        type: 'ShareTypeCreated',
        data: {
          shareTypeId: command.shareTypeId,
          name: command.name,
          description: command.description,
          extraSpecs: normaliseExtraSpecs(command.extraSpecs),
          isPublic: command.isPublic,
          createdAt: command.now,
        },
      },
    ];
  }
  if (state.status !== 'active') throw notFound(`Share type ${state.id || ''} could not be found.`);
  switch (command.type) {
    case 'UpdateShareType': {
      if (
        command.name === undefined &&
        command.description === undefined &&
        command.isPublic === undefined
      ) {
        throw invalid(
          'Nothing to update: give a name, a description or share_type_access:is_public.',
        );
      }
      if (command.name !== undefined) validateName(command.name);
      validateDescription(command.description);
      return [
        {
          type: 'ShareTypeUpdated',
          data: {
            shareTypeId: state.id,
            ...(command.name !== undefined && { name: command.name }),
            ...(command.description !== undefined && { description: command.description }),
            ...(command.isPublic !== undefined && { isPublic: command.isPublic }),
            updatedAt: command.now,
          },
        },
      ];
    }
    case 'SetShareTypeExtraSpecs':
      validateExtraSpecs(command.extraSpecs, { requireDhss: false });
      // Manila answers an empty set with 200 and writes nothing: nothing happened to record.
      if (Object.keys(command.extraSpecs).length === 0) return [];
      return [
        {
          type: 'ShareTypeExtraSpecsSet',
          data: {
            shareTypeId: state.id,
            extraSpecs: normaliseExtraSpecs(command.extraSpecs),
            updatedAt: command.now,
          },
        },
      ];
    case 'UnsetShareTypeExtraSpec':
      if (command.key === REQUIRED_SPEC) {
        throw forbidden(`Extra spec '${REQUIRED_SPEC}' can't be deleted.`);
      }
      if (!Object.hasOwn(state.extraSpecs, command.key)) {
        throw notFound(`Share type ${state.id} has no extra specs with key ${command.key}.`);
      }
      return [
        {
          type: 'ShareTypeExtraSpecUnset',
          data: { shareTypeId: state.id, key: command.key, updatedAt: command.now },
        },
      ];
    case 'AddShareTypeAccess':
      if (state.isPublic) throw conflict('Share type access cannot be changed for a public type.');
      if (state.projects.includes(command.projectId)) {
        throw conflict(`Share type access for project ${command.projectId} exists already.`);
      }
      return [
        {
          type: 'ShareTypeAccessAdded',
          data: { shareTypeId: state.id, projectId: command.projectId },
        },
      ];
    case 'RemoveShareTypeAccess':
      if (state.isPublic) throw conflict('Share type access cannot be changed for a public type.');
      if (!state.projects.includes(command.projectId)) {
        throw notFound(`Share type access not found for project ${command.projectId}.`);
      }
      return [
        {
          type: 'ShareTypeAccessRemoved',
          data: { shareTypeId: state.id, projectId: command.projectId },
        },
      ];
    case 'DeleteShareType':
      return [
        { type: 'ShareTypeDeleted', data: { shareTypeId: state.id, deletedAt: command.now } },
      ];
    default:
      return assertNever(command);
  }
};

export const shareTypeDecider: Decider<ShareTypeState, ShareTypeCommand, ShareTypeEvent> = {
  initialState: initialShareTypeState,
  evolve: evolveShareType,
  decide: decideShareType,
};
