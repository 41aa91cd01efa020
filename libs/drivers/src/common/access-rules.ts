import { isIP } from 'node:net';
import type {
  AccessLevel,
  AccessRule,
  AccessRuleUpdate,
  ShareProtocol,
  UpdateAccessRequest,
} from '../contract/share-driver.js';

/** A rule as enforced: its level after read-only casting. */
export interface AppliedAccessRule {
  readonly accessId: string;
  readonly accessType: AccessRule['accessType'];
  readonly accessTo: string;
  readonly accessLevel: AccessLevel;
}

export interface AccessChange {
  readonly rules: readonly AppliedAccessRule[];
  readonly ruleUpdates: Record<string, AccessRuleUpdate>;
}

const CIFS_USER = /^[A-Za-z0-9_.$@\\-]{1,255}$/;

/** Why a rule cannot be enforced for this protocol, or null when it can. */
export function accessRuleProblem(rule: AccessRule, protocol: ShareProtocol): string | null {
  if (protocol === 'NFS') {
    if (rule.accessType !== 'ip') return `NFS shares only accept ip rules, not ${rule.accessType}`;
    return isIpOrCidr(rule.accessTo) ? null : `"${rule.accessTo}" is not an IP address or CIDR`;
  }
  if (protocol === 'CIFS') return cifsRuleProblem(rule);
  return `protocol ${protocol} is not supported`;
}

/**
 * Samba takes users as `valid users` / `read list` and addresses as `hosts allow`. An address
 * cannot be made read-only for itself alone (clients it lets in are guests of the whole share),
 * so ip rules are rw, as Manila's own CIFS helper has them. A leading `@`, `+` or `&` would name
 * a Unix group to Samba, not a user.
 */
function cifsRuleProblem(rule: AccessRule): string | null {
  if (rule.accessType === 'ip') {
    if (!isIpOrCidr(rule.accessTo)) return `"${rule.accessTo}" is not an IP address or CIDR`;
    return rule.accessLevel === 'rw'
      ? null
      : 'CIFS shares take ip rules as rw only; use a user rule for read-only access';
  }
  if (rule.accessType !== 'user') {
    return `CIFS shares only accept user and ip rules, not ${rule.accessType}`;
  }
  return CIFS_USER.test(rule.accessTo) && !/^[@+&]/.test(rule.accessTo)
    ? null
    : `"${rule.accessTo}" is not a valid user name`;
}

function isIpOrCidr(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  if (rest.length > 0 || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Manila's update_access semantics: empty add/delete lists mean "enforce exactly accessRules";
 * otherwise apply the delta. Rules the back end cannot enforce are reported `error` and left out;
 * deleting a rule that was never applied is not an error.
 */
export function applyAccessRequest(
  current: readonly AppliedAccessRule[],
  request: UpdateAccessRequest,
): AccessChange {
  const fullSync = request.addRules.length === 0 && request.deleteRules.length === 0;
  const wanted = new Map<string, AccessRule>();
  if (fullSync) {
    for (const rule of request.accessRules) wanted.set(rule.accessId, rule);
  } else {
    for (const rule of current) wanted.set(rule.accessId, rule);
    for (const rule of request.deleteRules) wanted.delete(rule.accessId);
    for (const rule of request.addRules) wanted.set(rule.accessId, rule);
  }
  const ruleUpdates: Record<string, AccessRuleUpdate> = {};
  const rules: AppliedAccessRule[] = [];
  for (const rule of wanted.values()) {
    const problem = accessRuleProblem(rule, request.share.protocol);
    if (problem) {
      ruleUpdates[rule.accessId] = { state: 'error' };
      continue;
    }
    rules.push({
      accessId: rule.accessId,
      accessType: rule.accessType,
      accessTo: rule.accessTo,
      accessLevel: request.castRulesToReadonly ? 'ro' : rule.accessLevel,
    });
    ruleUpdates[rule.accessId] = { state: 'active' };
  }
  return { rules, ruleUpdates };
}

/** Casts every rule to read-only, for readable non-active replicas. */
export function castReadOnly(rules: readonly AppliedAccessRule[]): AppliedAccessRule[] {
  return rules.map((rule) => ({ ...rule, accessLevel: 'ro' }));
}

/** The rules a replica enforces when given the share's whole rule set (invalid ones left out). */
export function appliedRulesFor(
  share: UpdateAccessRequest['share'],
  accessRules: readonly AccessRule[],
  readOnly: boolean,
): AccessChange {
  return applyAccessRequest([], {
    commandId: 'replica-rules',
    share,
    accessRules,
    addRules: [],
    deleteRules: [],
    castRulesToReadonly: readOnly,
  });
}
