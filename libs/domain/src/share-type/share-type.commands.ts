import type { ExtraSpecs } from './extra-specs.js';

export type ShareTypeCommand =
  | {
      type: 'CreateShareType';
      shareTypeId: string;
      name: string;
      description: string | null;
      extraSpecs: ExtraSpecs;
      isPublic: boolean;
      now: string;
    }
  | {
      type: 'UpdateShareType';
      name?: string;
      description?: string | null;
      isPublic?: boolean;
      now: string;
    }
  | { type: 'SetShareTypeExtraSpecs'; extraSpecs: ExtraSpecs; now: string }
  | { type: 'UnsetShareTypeExtraSpec'; key: string; now: string }
  | { type: 'AddShareTypeAccess'; projectId: string }
  | { type: 'RemoveShareTypeAccess'; projectId: string }
  | { type: 'DeleteShareType'; now: string };
