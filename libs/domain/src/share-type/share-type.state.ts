import { assertNever } from '../shared/decider.js';
import type { ExtraSpecs } from './extra-specs.js';
import type { ShareTypeEvent } from './share-type.events.js';

export interface ShareTypeState {
  readonly status: 'absent' | 'active' | 'deleted';
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly extraSpecs: ExtraSpecs;
  readonly isPublic: boolean;
  readonly projects: readonly string[];
}

export const initialShareTypeState = (): ShareTypeState => ({
  status: 'absent',
  id: '',
  name: '',
  description: null,
  extraSpecs: {},
  isPublic: true,
  projects: [],
});

export const evolveShareType = (state: ShareTypeState, event: ShareTypeEvent): ShareTypeState => {
  switch (event.type) {
    case 'ShareTypeCreated':
      return {
        status: 'active',
        id: event.data.shareTypeId,
        name: event.data.name,
        description: event.data.description,
        extraSpecs: event.data.extraSpecs,
        isPublic: event.data.isPublic,
        projects: [],
      };
    case 'ShareTypeUpdated':
      return {
        ...state,
        name: event.data.name ?? state.name,
        description:
          event.data.description === undefined ? state.description : event.data.description,
        isPublic: event.data.isPublic ?? state.isPublic,
      };
    case 'ShareTypeExtraSpecsSet':
      return { ...state, extraSpecs: { ...state.extraSpecs, ...event.data.extraSpecs } };
    case 'ShareTypeExtraSpecUnset': {
      const { [event.data.key]: _removed, ...rest } = state.extraSpecs;
      return { ...state, extraSpecs: rest };
    }
    case 'ShareTypeAccessAdded':
      return { ...state, projects: [...state.projects, event.data.projectId] };
    case 'ShareTypeAccessRemoved':
      return { ...state, projects: state.projects.filter((p) => p !== event.data.projectId) };
    case 'ShareTypeDeleted':
      return { ...state, status: 'deleted' };
    default:
      return assertNever(event);
  }
};
