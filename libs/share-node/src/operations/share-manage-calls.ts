import type { ActiveShare, ShareCommand, SnapshotState } from '#hawser/domain';
import type { ShareDriver, ShareInstanceRef, SnapshotRequest } from '#hawser/drivers';
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

/**
 * The driver call of a claimed snapshot manage or unmanage, and the command recording its
 * outcome: the adopted snapshot's size (when the driver tells it), provider location and
 * export locations, or the snapshot let go; a failure leaves it manage_error / unmanage_error.
 */
export async function snapshotManageCall(
  driver: ShareDriver,
  operation: 'manage_snapshot' | 'unmanage_snapshot',
  request: SnapshotRequest,
  snapshot: SnapshotState | undefined,
  now: () => string,
  messageOf: (error: unknown) => string,
): Promise<ShareCommand> {
  const claim = {
    snapshotId: request.snapshot.snapshotId,
    snapshotInstanceId: request.snapshot.snapshotInstanceId,
    commandId: request.commandId,
  };
  try {
    if (operation === 'unmanage_snapshot') {
      await driver.unmanageSnapshot(request);
      return { type: 'CompleteSnapshotUnmanage', ...claim, now: now() };
    }
    const asked = snapshot?.manageRequest ?? { providerLocation: '', driverOptions: {} };
    const result = await driver.manageExistingSnapshot({
      ...request,
      providerLocation: asked.providerLocation,
      driverOptions: asked.driverOptions,
    });
    return {
      type: 'CompleteSnapshotManage',
      ...claim,
      size: result.sizeGiB ?? null,
      providerLocation: result.providerLocation,
      exportLocations: exportLocationsOf(request.commandId, result.exportLocations ?? []),
      now: now(),
    };
  } catch (error) {
    const type = operation === 'manage_snapshot' ? 'FailSnapshotManage' : 'FailSnapshotUnmanage';
    return { type, ...claim, message: messageOf(error), now: now() };
  }
}
