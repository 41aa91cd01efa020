import { invalid, type DomainError } from '../shared/domain-error.js';
import { isBusyTaskState } from './share-migration.types.js';
import type { ActiveShare } from './share.state.js';

/**
 * Manila's `_check_is_share_busy` (share/api.py): a share whose `task_state` is busy (a
 * migration under way) refuses changes whatever its status says, with ShareBusyException's
 * message; a 400 unless the action answers it otherwise (soft delete 403).
 */
export const refuseIfBusy = (
  state: ActiveShare,
  refusal: (message: string) => DomainError = invalid,
): void => {
  if (isBusyTaskState(state.taskState)) {
    throw refusal(
      `Share is busy with an active task: Share ${state.id} is busy as part of an active task: ${state.taskState}.`,
    );
  }
};
