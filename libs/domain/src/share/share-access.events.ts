import type { DomainEvent } from '../shared/decider.js';
import type { AccessLevel, AccessType } from './share-access.state.js';

/** A rule was added; every share instance holds it `queued_to_apply`. */
export type ShareAccessAllowed = DomainEvent<
  'ShareAccessAllowed',
  {
    accessId: string;
    accessType: AccessType;
    accessTo: string;
    accessLevel: AccessLevel;
    metadata: Record<string, string>;
    instanceIds: string[];
    createdAt: string;
  }
>;

/** A rule's metadata (2.45) was set or unset; the driver is not involved. */
export type AccessRuleMetadataChanged = DomainEvent<
  'AccessRuleMetadataChanged',
  { accessId: string; set: Record<string, string>; unset: string[]; updatedAt: string }
>;

/** A rule is to go; every share instance holds it `queued_to_deny`. */
export type ShareAccessDenied = DomainEvent<
  'ShareAccessDenied',
  { accessId: string; instanceIds: string[]; deniedAt: string }
>;

/**
 * The driver applied an instance's queued changes (claimed as `applying`/`denying`): per-rule
 * results; rules without a result went `active`, denied ones are gone.
 */
export type ShareAccessUpdated = DomainEvent<
  'ShareAccessUpdated',
  {
    instanceId: string;
    commandId: string;
    ruleUpdates: Record<string, { state?: 'active' | 'error'; accessKey?: string }>;
    updatedAt: string;
  }
>;

/** The driver call failed: every rule it carried is `error` on that instance. */
export type ShareAccessUpdateFailed = DomainEvent<
  'ShareAccessUpdateFailed',
  { instanceId: string; commandId: string; message: string; failedAt: string }
>;

export type AccessEvent =
  | ShareAccessAllowed
  | AccessRuleMetadataChanged
  | ShareAccessDenied
  | ShareAccessUpdated
  | ShareAccessUpdateFailed;
