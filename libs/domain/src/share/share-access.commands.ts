import type { ShareAccessUpdated } from './share-access.events.js';

export type AccessCommand =
  | {
      type: 'AllowAccess';
      accessId: string;
      accessType: string;
      accessTo: string;
      accessLevel: string;
      metadata: Record<string, string>;
      /** IPv6 addresses are accepted from microversion 2.38. */
      ipv6: boolean;
      now: string;
    }
  | { type: 'DenyAccess'; accessId: string; now: string }
  | {
      type: 'ChangeAccessRuleMetadata';
      accessId: string;
      set: Record<string, string>;
      unset: string[];
      now: string;
    }
  | {
      type: 'CompleteAccessUpdate';
      instanceId: string;
      commandId: string;
      ruleUpdates: ShareAccessUpdated['data']['ruleUpdates'];
      now: string;
    }
  | {
      type: 'FailAccessUpdate';
      instanceId: string;
      commandId: string;
      message: string;
      now: string;
    };
