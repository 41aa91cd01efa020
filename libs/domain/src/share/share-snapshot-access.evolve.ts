import { settlePending } from './share-pending.js';
import type { SnapshotAccessEvent } from './share-snapshot-access.events.js';
import type { SnapshotAccessRuleState, SnapshotState } from './share-snapshot.state.js';
import { updateSnapshot } from './share-snapshot.updates.js';
import type { ActiveShare } from './share.state.js';

const withRules = (
  state: ActiveShare,
  snapshotId: string,
  at: string,
  update: (rules: readonly SnapshotAccessRuleState[]) => SnapshotAccessRuleState[],
): ActiveShare =>
  updateSnapshot(state, snapshotId, (s: SnapshotState) => ({
    ...s,
    accessRules: update(s.accessRules ?? []),
    updatedAt: at,
  }));

export const evolveSnapshotAccess = (
  state: ActiveShare,
  event: SnapshotAccessEvent,
): ActiveShare => {
  switch (event.type) {
    case 'SnapshotAccessAllowed': {
      const d = event.data;
      return withRules(state, d.snapshotId, d.createdAt, (rules) => [
        ...rules,
        {
          id: d.accessId,
          accessType: d.accessType,
          accessTo: d.accessTo,
          state: 'queued_to_apply',
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
        },
      ]);
    }
    case 'SnapshotAccessDenied': {
      const d = event.data;
      return withRules(state, d.snapshotId, d.requestedAt, (rules) =>
        rules.map((r) =>
          r.id === d.accessId ? { ...r, state: 'queued_to_deny', updatedAt: d.requestedAt } : r,
        ),
      );
    }
    case 'SnapshotAccessUpdated': {
      const d = event.data;
      return withRules(
        settlePending(state, d.commandId, d.updatedAt),
        d.snapshotId,
        d.updatedAt,
        (rules) =>
          rules
            .filter((r) => !d.denied.includes(r.id))
            .map((r) =>
              d.applied.includes(r.id) ? { ...r, state: 'active', updatedAt: d.updatedAt } : r,
            ),
      );
    }
    case 'SnapshotAccessUpdateFailed': {
      const d = event.data;
      return withRules(
        settlePending(state, d.commandId, d.failedAt),
        d.snapshotId,
        d.failedAt,
        (rules) =>
          rules.map((r) =>
            d.failed.includes(r.id) ? { ...r, state: 'error', updatedAt: d.failedAt } : r,
          ),
      );
    }
  }
};
