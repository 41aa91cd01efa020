import type { ActiveShare } from './share.state.js';

/** Clears the claim of `commandId` on whichever instance holds it: its outcome is in. */
export const settlePending = (state: ActiveShare, commandId: string, at: string): ActiveShare => ({
  ...state,
  instances: state.instances.map((i) =>
    i.pendingOperation?.commandId === commandId
      ? { ...i, pendingOperation: null, updatedAt: at }
      : i,
  ),
});
