import type { ActiveShare, ShareCommand } from '#hawser/domain';
import type { ShareDriver, ShareInstanceRef } from '#hawser/drivers';
import { exportLocationsOf } from './share-from-snapshot-calls.js';

/**
 * The driver call of a claimed manage or unmanage, and the command recording its outcome: an
 * adopted share's size and export locations, or a share let go; a failure leaves it in
 * manage_error / unmanage_error.
 */
export async function manageCall(
  driver: ShareDriver,
  operation: 'manage_share' | 'unmanage_share',
  state: ActiveShare,
  share: ShareInstanceRef,
  commandId: string,
  now: () => string,
  messageOf: (error: unknown) => string,
): Promise<ShareCommand> {
  const instanceId = share.instanceId;
  try {
    if (operation === 'unmanage_share') {
      await driver.unmanage({ commandId, share });
      return { type: 'CompleteShareUnmanage', instanceId, commandId, now: now() };
    }
    const request = state.manageRequest ?? { exportPath: '', driverOptions: {} };
    const result = await driver.manageExisting({
      commandId,
      share,
      exportPath: request.exportPath,
      driverOptions: request.driverOptions,
    });
    return {
      type: 'CompleteShareManage',
      instanceId,
      commandId,
      size: result.sizeGiB,
      exportLocations: exportLocationsOf(commandId, result.exportLocations),
      now: now(),
    };
  } catch (error) {
    const type = operation === 'manage_share' ? 'FailShareManage' : 'FailShareUnmanage';
    return { type, instanceId, commandId, message: messageOf(error), now: now() };
  }
}
