import { invalid, notFound } from '../shared/domain-error.js';
import { sameGranteeAs } from './access-ip-network.js';
import { validateAccessRule, type AccessType } from './share-access.state.js';
import type { SnapshotAccessCommand } from './share-snapshot-access.commands.js';
import type { SnapshotAccessEvent } from './share-snapshot-access.events.js';
import type { SnapshotState } from './share-snapshot.state.js';
import type { ActiveShare } from './share.state.js';

type Of<T extends SnapshotAccessCommand['type']> = Extract<SnapshotAccessCommand, { type: T }>;

const snapshotOf = (state: ActiveShare, snapshotId: string): SnapshotState => {
  const snapshot = state.snapshots.find((s) => s.id === snapshotId);
  if (!snapshot) throw notFound(`Snapshot ${snapshotId} could not be found.`);
  return snapshot;
};

/** Manila's _check_mount_snapshot_support (400). */
const requireMountable = (state: ActiveShare, snapshot: SnapshotState): void => {
  if (!state.capabilities?.mountSnapshotSupport) {
    throw invalid(
      `Cannot control access to the snapshot ${snapshot.id} since the parent share ${state.id} does not support mounting its snapshots.`,
    );
  }
};

/** Manila's share_api checks: every instance available and placed (400). */
const requireInstancesAvailable = (
  state: ActiveShare,
  snapshot: SnapshotState,
  what: 'New access rules cannot be applied' | 'Access rules cannot be denied',
): void => {
  const unfit = snapshot.instances.some(
    (i) =>
      i.status !== 'available' || !state.instances.find((s) => s.id === i.shareInstanceId)?.host,
  );
  if (unfit) {
    throw invalid(
      `Invalid share snapshot instance: ${what} while the snapshot or any of its replicas or migration copies lacks a valid host or is not in available state.`,
    );
  }
};

const instancesOf = (snapshot: SnapshotState) =>
  snapshot.instances.map((i) => ({ id: i.id, shareInstanceId: i.shareInstanceId }));

const allowSnapshotAccess = (
  command: Of<'AllowSnapshotAccess'>,
  state: ActiveShare,
): SnapshotAccessEvent[] => {
  const snapshot = snapshotOf(state, command.snapshotId);
  requireMountable(state, snapshot);
  // Snapshots are mounted read-only: the level is not the caller's to choose.
  validateAccessRule(command.accessType, command.accessTo, 'ro', { ipv6: command.ipv6 });
  const sameGrantee = sameGranteeAs(command.accessType, command.accessTo);
  const exists = (snapshot.accessRules ?? []).some(
    (r) => r.accessType === command.accessType && sameGrantee(r.accessTo),
  );
  if (exists) {
    throw invalid(`Share snapshot access ${command.accessType}:${command.accessTo} exists.`);
  }
  requireInstancesAvailable(state, snapshot, 'New access rules cannot be applied');
  return [
    {
      type: 'SnapshotAccessAllowed',
      data: {
        snapshotId: snapshot.id,
        accessId: command.accessId,
        accessType: command.accessType as AccessType,
        accessTo: command.accessTo,
        snapshotInstances: instancesOf(snapshot),
        createdAt: command.now,
      },
    },
  ];
};

/** Manila's _deny: the rule must be the snapshot's (400 otherwise, 404 for an unknown one). */
const denySnapshotAccess = (
  command: Of<'DenySnapshotAccess'>,
  state: ActiveShare,
): SnapshotAccessEvent[] => {
  const snapshot = snapshotOf(state, command.snapshotId);
  requireMountable(state, snapshot);
  const rule = (snapshot.accessRules ?? []).find((r) => r.id === command.accessId);
  if (!rule) throw invalid('Access rule provided is not associated with given snapshot.');
  requireInstancesAvailable(state, snapshot, 'Access rules cannot be denied');
  return [
    {
      type: 'SnapshotAccessDenied',
      data: {
        snapshotId: snapshot.id,
        accessId: rule.id,
        snapshotInstances: instancesOf(snapshot),
        requestedAt: command.now,
      },
    },
  ];
};

/** Whether the node's claim on the snapshot instance for an access update is still open. */
const claimOpen = (
  state: ActiveShare,
  command: { snapshotId: string; snapshotInstanceId: string; commandId: string },
): boolean => {
  const instance = state.snapshots
    .find((s) => s.id === command.snapshotId)
    ?.instances.find((i) => i.id === command.snapshotInstanceId);
  const pending = state.instances.find((i) => i.id === instance?.shareInstanceId)?.pendingOperation;
  return pending?.commandId === command.commandId && pending.operation === 'update_snapshot_access';
};

const idsIn = (snapshot: SnapshotState, ...states: string[]): string[] =>
  (snapshot.accessRules ?? []).filter((r) => states.includes(r.state)).map((r) => r.id);

/** Mountable snapshots' read-only access rules (2.32): the API's checks and the node's outcome. */
export const decideSnapshotAccess = (
  command: SnapshotAccessCommand,
  state: ActiveShare,
): SnapshotAccessEvent[] => {
  switch (command.type) {
    case 'AllowSnapshotAccess':
      return allowSnapshotAccess(command, state);
    case 'DenySnapshotAccess':
      return denySnapshotAccess(command, state);
    case 'CompleteSnapshotAccessUpdate': {
      if (!claimOpen(state, command)) return [];
      const snapshot = snapshotOf(state, command.snapshotId);
      return [
        {
          type: 'SnapshotAccessUpdated',
          data: {
            snapshotId: snapshot.id,
            snapshotInstanceId: command.snapshotInstanceId,
            commandId: command.commandId,
            applied: idsIn(snapshot, 'queued_to_apply', 'applying'),
            denied: idsIn(snapshot, 'queued_to_deny', 'denying'),
            updatedAt: command.now,
          },
        },
      ];
    }
    case 'FailSnapshotAccessUpdate': {
      if (!claimOpen(state, command)) return [];
      const snapshot = snapshotOf(state, command.snapshotId);
      return [
        {
          type: 'SnapshotAccessUpdateFailed',
          data: {
            snapshotId: snapshot.id,
            snapshotInstanceId: command.snapshotInstanceId,
            commandId: command.commandId,
            failed: idsIn(snapshot, 'queued_to_apply', 'applying', 'queued_to_deny', 'denying'),
            message: command.message,
            failedAt: command.now,
          },
        },
      ];
    }
  }
};
