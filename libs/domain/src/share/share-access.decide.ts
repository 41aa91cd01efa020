import { sameGranteeAs } from './access-ip-network.js';
import { conflict, invalid, notFound } from '../shared/domain-error.js';
import type { AccessCommand } from './share-access.commands.js';
import type { AccessEvent } from './share-access.events.js';
import { refuseIfBusy } from './share-busy.js';
import { validateAccessRule, type AccessLevel, type AccessType } from './share-access.state.js';
import { metadataChange, validateMetadata } from './share-metadata.js';
import type { ActiveShare } from './share.state.js';
import { TRANSITIONAL_STATUSES } from './share.types.js';

/**
 * Every instance must be placed and settled for rules to change (reference 3.4, 5.3). Unlike
 * Manila, a busy share refuses too, whatever its statuses say: a migration casts the source's
 * rules read-only and moves them to the destination, which a rule changed meanwhile would miss.
 */
const requireInstancesAcceptChanges = (state: ActiveShare): void => {
  refuseIfBusy(state);
  for (const instance of state.instances) {
    if (instance.host === '') {
      throw invalid(`Share instance ${instance.id} has no host yet: access cannot change.`);
    }
    // Unlike Manila, not during a promotion either: the promotion and the rule update would
    // queue for one replica, and the one that waits too long would be dropped.
    if (
      TRANSITIONAL_STATUSES.has(instance.status) ||
      instance.status === 'error' ||
      instance.status === 'replication_change'
    ) {
      throw invalid(
        `Share instance ${instance.id} is ${instance.status}: access rules can only change ` +
          'when no instance is in a transitional or error status.',
      );
    }
  }
};

const claimOpen = (state: ActiveShare, instanceId: string, commandId: string): boolean =>
  state.instances.find((i) => i.id === instanceId)?.pendingOperation?.commandId === commandId;

const allowAccess = (
  command: Extract<AccessCommand, { type: 'AllowAccess' }>,
  state: ActiveShare,
): AccessEvent[] => {
  validateAccessRule(command.accessType, command.accessTo, command.accessLevel, {
    ipv6: command.ipv6,
  });
  validateMetadata(command.metadata);
  if (state.accessRules.some((r) => r.id === command.accessId)) {
    throw conflict(`Access rule ${command.accessId} exists already.`);
  }
  const sameGrantee = sameGranteeAs(command.accessType, command.accessTo);
  const duplicate = state.accessRules.find(
    (r) => r.accessType === command.accessType && sameGrantee(r.accessTo),
  );
  if (duplicate) {
    throw invalid(
      `Share access ${command.accessType}:${command.accessTo} exists (rule ${duplicate.id}).`,
    );
  }
  requireInstancesAcceptChanges(state);
  return [
    {
      type: 'ShareAccessAllowed',
      data: {
        accessId: command.accessId,
        accessType: command.accessType as AccessType,
        accessTo: command.accessTo,
        accessLevel: command.accessLevel as AccessLevel,
        metadata: command.metadata,
        instanceIds: state.instances.map((i) => i.id),
        createdAt: command.now,
      },
    },
  ];
};

const changeAccessRuleMetadata = (
  command: Extract<AccessCommand, { type: 'ChangeAccessRuleMetadata' }>,
  state: ActiveShare,
): AccessEvent[] => {
  const rule = state.accessRules.find((r) => r.id === command.accessId);
  if (!rule) throw notFound(`Access rule ${command.accessId} could not be found.`);
  const change = metadataChange(rule.metadata, command.set, command.unset);
  if (!change) return [];
  return [
    {
      type: 'AccessRuleMetadataChanged',
      data: { accessId: rule.id, ...change, updatedAt: command.now },
    },
  ];
};

const denyAccess = (
  command: Extract<AccessCommand, { type: 'DenyAccess' }>,
  state: ActiveShare,
): AccessEvent[] => {
  const rule = state.accessRules.find((r) => r.id === command.accessId);
  if (!rule) throw notFound(`Access rule ${command.accessId} could not be found.`);
  requireInstancesAcceptChanges(state);
  const instanceIds = Object.entries(rule.instances)
    .filter(([, s]) => s !== 'queued_to_deny' && s !== 'denying')
    .map(([id]) => id);
  if (instanceIds.length === 0) return [];
  return [
    {
      type: 'ShareAccessDenied',
      data: { accessId: rule.id, instanceIds, deniedAt: command.now },
    },
  ];
};

const completeAccessUpdate = (
  command: Extract<AccessCommand, { type: 'CompleteAccessUpdate' }>,
  state: ActiveShare,
): AccessEvent[] => {
  if (!claimOpen(state, command.instanceId, command.commandId)) return [];
  return [
    {
      type: 'ShareAccessUpdated',
      data: {
        instanceId: command.instanceId,
        commandId: command.commandId,
        ruleUpdates: command.ruleUpdates,
        updatedAt: command.now,
      },
    },
  ];
};

const failAccessUpdate = (
  command: Extract<AccessCommand, { type: 'FailAccessUpdate' }>,
  state: ActiveShare,
): AccessEvent[] => {
  if (!claimOpen(state, command.instanceId, command.commandId)) return [];
  return [
    {
      type: 'ShareAccessUpdateFailed',
      data: {
        instanceId: command.instanceId,
        commandId: command.commandId,
        message: command.message,
        failedAt: command.now,
      },
    },
  ];
};

/** Access rules of a share, one mapping per share instance (reference 2.5, 3.4). */
export const decideAccess = (command: AccessCommand, state: ActiveShare): AccessEvent[] => {
  switch (command.type) {
    case 'AllowAccess':
      return allowAccess(command, state);
    case 'ChangeAccessRuleMetadata':
      return changeAccessRuleMetadata(command, state);
    case 'DenyAccess':
      return denyAccess(command, state);
    case 'CompleteAccessUpdate':
      return completeAccessUpdate(command, state);
    case 'FailAccessUpdate':
      return failAccessUpdate(command, state);
  }
};
