import { applyMetadataChange } from './share-metadata.js';
import { settlePending } from './share-pending.js';
import type { AccessEvent } from './share-access.events.js';
import type { AccessMappingState, AccessRuleState } from './share-access.state.js';
import type { ShareDriverOperationStarted } from './share.events.js';
import type { ActiveShare } from './share.state.js';

type Mappings = Record<string, AccessMappingState>;

const mapInstance = (
  rules: readonly AccessRuleState[],
  instanceId: string,
  at: string,
  change: (state: AccessMappingState, rule: AccessRuleState) => AccessMappingState | null,
): AccessRuleState[] =>
  rules.flatMap((rule) => {
    const current = rule.instances[instanceId];
    if (current === undefined) return [rule];
    const next = change(current, rule);
    if (next === current) return [rule];
    const instances: Mappings = { ...rule.instances };
    if (next === null) delete instances[instanceId];
    else instances[instanceId] = next;
    // A rule goes with its last mapping.
    if (Object.keys(instances).length === 0) return [];
    return [{ ...rule, instances, updatedAt: at }];
  });

/** An instance that is gone holds no rules any more. */
export const withdrawInstanceFromRules = (
  rules: readonly AccessRuleState[],
  instanceId: string,
  at: string,
): AccessRuleState[] => mapInstance(rules, instanceId, at, () => null);

/** Manila's sync start (reference 2.5 step 3): queued changes on the instance become in-flight. */
const claim = (state: AccessMappingState): AccessMappingState => {
  if (state === 'queued_to_apply') return 'applying';
  if (state === 'queued_to_deny') return 'denying';
  return state;
};

export const evolveAccess = (
  state: ActiveShare,
  event: AccessEvent | ShareDriverOperationStarted,
): ActiveShare => {
  switch (event.type) {
    case 'ShareDriverOperationStarted':
      return {
        ...state,
        accessRules: mapInstance(
          state.accessRules,
          event.data.instanceId,
          event.data.startedAt,
          claim,
        ),
      };
    case 'ShareAccessAllowed': {
      const d = event.data;
      const rule: AccessRuleState = {
        id: d.accessId,
        accessType: d.accessType,
        accessTo: d.accessTo,
        accessLevel: d.accessLevel,
        accessKey: null,
        metadata: d.metadata,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
        instances: Object.fromEntries(d.instanceIds.map((id) => [id, 'queued_to_apply'])),
      };
      return { ...state, accessRules: [...state.accessRules, rule] };
    }
    case 'AccessRuleMetadataChanged': {
      const d = event.data;
      return {
        ...state,
        accessRules: state.accessRules.map((rule) =>
          rule.id === d.accessId
            ? { ...rule, metadata: applyMetadataChange(rule.metadata, d), updatedAt: d.updatedAt }
            : rule,
        ),
      };
    }
    case 'ShareAccessDenied': {
      const d = event.data;
      const targets = new Set(d.instanceIds);
      return {
        ...state,
        accessRules: state.accessRules.map((rule) =>
          rule.id !== d.accessId
            ? rule
            : {
                ...rule,
                updatedAt: d.deniedAt,
                instances: Object.fromEntries(
                  Object.entries(rule.instances).map(([id, s]) => [
                    id,
                    targets.has(id) ? 'queued_to_deny' : s,
                  ]),
                ),
              },
        ),
      };
    }
    case 'ShareAccessUpdated': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.updatedAt);
      const keys = new Map<string, string>();
      const rules = mapInstance(settled.accessRules, d.instanceId, d.updatedAt, (s, rule) => {
        if (s === 'denying') return null;
        if (s !== 'applying' && s !== 'active') return s;
        const update = d.ruleUpdates[rule.id];
        if (update?.accessKey !== undefined) keys.set(rule.id, update.accessKey);
        return update?.state ?? 'active';
      });
      return {
        ...settled,
        accessRules: rules.map((r) =>
          keys.has(r.id) ? { ...r, accessKey: keys.get(r.id) as string } : r,
        ),
      };
    }
    case 'ShareAccessUpdateFailed': {
      const d = event.data;
      const settled = settlePending(state, d.commandId, d.failedAt);
      return {
        ...settled,
        accessRules: mapInstance(settled.accessRules, d.instanceId, d.failedAt, (s) =>
          s === 'applying' || s === 'denying' ? 'error' : s,
        ),
      };
    }
  }
};
