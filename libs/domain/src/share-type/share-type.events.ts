import type { DomainEvent } from '../shared/decider.js';
import type { ExtraSpecs } from './extra-specs.js';

export type ShareTypeCreated = DomainEvent<
  'ShareTypeCreated',
  {
    shareTypeId: string;
    name: string;
    description: string | null;
    extraSpecs: ExtraSpecs;
    isPublic: boolean;
    createdAt: string;
  }
>;
export type ShareTypeUpdated = DomainEvent<
  'ShareTypeUpdated',
  {
    shareTypeId: string;
    name?: string;
    description?: string | null;
    isPublic?: boolean;
    updatedAt: string;
  }
>;
export type ShareTypeExtraSpecsSet = DomainEvent<
  'ShareTypeExtraSpecsSet',
  { shareTypeId: string; extraSpecs: ExtraSpecs; updatedAt: string }
>;
export type ShareTypeExtraSpecUnset = DomainEvent<
  'ShareTypeExtraSpecUnset',
  { shareTypeId: string; key: string; updatedAt: string }
>;
export type ShareTypeAccessAdded = DomainEvent<
  'ShareTypeAccessAdded',
  { shareTypeId: string; projectId: string }
>;
export type ShareTypeAccessRemoved = DomainEvent<
  'ShareTypeAccessRemoved',
  { shareTypeId: string; projectId: string }
>;
export type ShareTypeDeleted = DomainEvent<
  'ShareTypeDeleted',
  { shareTypeId: string; deletedAt: string }
>;

export type ShareTypeEvent =
  | ShareTypeCreated
  | ShareTypeUpdated
  | ShareTypeExtraSpecsSet
  | ShareTypeExtraSpecUnset
  | ShareTypeAccessAdded
  | ShareTypeAccessRemoved
  | ShareTypeDeleted;

export const shareTypeStream = (shareTypeId: string): string => `sharetype-${shareTypeId}`;
