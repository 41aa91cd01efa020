import { ipNetworkRefusal } from './access-ip-network.js';
import { invalid } from '../shared/domain-error.js';

export type AccessType = 'ip' | 'user' | 'cert' | 'cephx';
export type AccessLevel = 'rw' | 'ro';

/** The state of one rule on one share instance (reference 2.5). */
export type AccessMappingState =
  'queued_to_apply' | 'applying' | 'active' | 'error' | 'queued_to_deny' | 'denying';

/** A share instance's `access_rules_status` (reference 2.1). */
export type AccessRulesStatus = 'active' | 'syncing' | 'error';

export interface AccessRuleState {
  readonly id: string;
  readonly accessType: AccessType;
  readonly accessTo: string;
  readonly accessLevel: AccessLevel;
  readonly accessKey: string | null;
  readonly metadata: Readonly<Record<string, string>>;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Per share instance (replica): readable replicas later get their own casting. */
  readonly instances: Readonly<Record<string, AccessMappingState>>;
}

/** Worst first (reference 1.7). */
const WORST_FIRST: readonly AccessMappingState[] = [
  'error',
  'denying',
  'queued_to_deny',
  'queued_to_apply',
  'applying',
  'active',
];

/** A rule's state: the worst of its per-instance states. */
export const accessRuleStateOf = (rule: AccessRuleState): AccessMappingState => {
  const states = new Set(Object.values(rule.instances));
  return WORST_FIRST.find((s) => states.has(s)) ?? 'active';
};

/** One instance's access_rules_status: error wins, then any pending change means syncing. */
export const instanceAccessRulesStatus = (
  rules: readonly AccessRuleState[],
  instanceId: string,
): AccessRulesStatus => {
  const states = rules.map((r) => r.instances[instanceId]).filter((s) => s !== undefined);
  if (states.includes('error')) return 'error';
  return states.every((s) => s === 'active') ? 'active' : 'syncing';
};

const RANK: Readonly<Record<AccessRulesStatus, number>> = { active: 0, syncing: 1, error: 2 };

/** The share's access_rules_status: worst over its available instances (reference 1.1). */
export const shareAccessRulesStatus = (
  rules: readonly AccessRuleState[],
  instances: readonly { readonly id: string; readonly status: string }[],
): AccessRulesStatus =>
  instances
    .filter((i) => i.status === 'available')
    .map((i) => instanceAccessRulesStatus(rules, i.id))
    .reduce<AccessRulesStatus>((worst, s) => (RANK[s] > RANK[worst] ? s : worst), 'active');

const USER_FORBIDDEN = /["/\\[\]:;|=,+*?<>]/;
const CEPHX_PRINTABLE = /^[\x20-\x7e]+$/;

/** Manila's allow_access value checks (reference 3.4); throws `invalid` (400). */
export const validateAccessRule = (
  accessType: string,
  accessTo: string,
  accessLevel: string,
  options: { readonly ipv6: boolean },
): void => {
  if (accessLevel !== 'rw' && accessLevel !== 'ro') {
    throw invalid(`Invalid share access level: ${accessLevel}.`);
  }
  switch (accessType) {
    case 'ip': {
      const refusal = ipNetworkRefusal(accessTo, options.ipv6);
      if (refusal !== undefined) throw invalid(refusal);
      return;
    }
    case 'user':
      if (
        accessTo.length < 4 ||
        accessTo.length > 255 ||
        USER_FORBIDDEN.test(accessTo) ||
        /^[. ]*$/.test(accessTo)
      ) {
        throw invalid(
          'Invalid user or group name. It must be 4 to 255 characters long and must not ' +
            'contain any of " / \\ [ ] : ; | = , + * ? < > or be made of dots and spaces only.',
        );
      }
      return;
    case 'cert':
      if (accessTo.trim().length < 1 || accessTo.length > 64) {
        throw invalid('Invalid certificate common name: it must be 1 to 64 characters.');
      }
      return;
    case 'cephx':
      if (!CEPHX_PRINTABLE.test(accessTo) || accessTo.includes('.')) {
        throw invalid(
          'Invalid cephx id: it must be printable ASCII without ".". ' +
            'Manila derives the client name from it.',
        );
      }
      return;
    default:
      throw invalid(`Only "ip", "user", "cert" or "cephx" access types are supported.`);
  }
};
