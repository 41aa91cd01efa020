import type { CommandContext } from '#hawser/application';
import {
  derivedId,
  shareDecider,
  shareStream,
  type ExportLocation,
  type SnapshotSource,
  isActiveShare,
} from '#hawser/domain';
import {
  DriverError,
  type CreateShareFromSnapshotRequest,
  type ExportLocation as DriverExportLocation,
  type ShareDriver,
  type ShareInstanceRef,
  type ShareStatusResult,
} from '#hawser/drivers';
import { NodeDriverCalls } from './node-driver-calls.js';

/** Export locations as the share's stream records them: ids derived from the command. */
export const exportLocationsOf = (
  commandId: string,
  locations: readonly DriverExportLocation[],
): ExportLocation[] =>
  locations.map((l, index) => ({
    id: derivedId(commandId, `export-${index}`),
    path: l.path,
    preferred: l.preferred,
    isAdminOnly: l.isAdminOnly,
  }));

/** Manila's create_share_from_snapshot arguments: the new instance, the snapshot, its parent. */
export const createFromSnapshotRequest = (
  commandId: string,
  share: ShareInstanceRef,
  source: SnapshotSource,
): CreateShareFromSnapshotRequest => ({
  commandId,
  share,
  snapshot: {
    snapshotId: source.snapshotId,
    snapshotInstanceId: source.snapshotInstanceId,
    shareId: source.shareId,
    shareInstanceId: source.shareInstanceId,
    sizeGiB: source.size,
  },
  parentShare: {
    shareId: source.shareId,
    instanceId: source.shareInstanceId,
    sizeGiB: source.size,
    protocol: share.protocol,
    host: source.host,
  },
});

/**
 * Manila's periodic_share_status_update for one instance (reference 4.5 step 4): asks the
 * driver how an instance in `creating_from_snapshot` stands and records it (progress, available
 * with export locations, or error). The poll id derives from the stream revision polled, so a
 * repeated poll of the same revision appends nothing twice.
 */
export class CreatingFromSnapshotPoller extends NodeDriverCalls {
  async poll(shareId: string, instanceId: string): Promise<void> {
    const { state, revision } = await this.commands.load(shareDecider, shareStream(shareId));
    if (!isActiveShare(state)) return;
    const instance = state.instances.find((i) => i.id === instanceId);
    const driver = instance && this.driverFor(instance.host);
    if (!instance || instance.status !== 'creating_from_snapshot' || !driver) return;
    const pollId = derivedId(instance.id, `poll:${revision}`);
    const result = await this.statusOf(driver, pollId, this.refOf(state, instance));
    await this.commands.handle(
      shareDecider,
      shareStream(shareId),
      {
        type: 'RecordShareStatusPoll',
        instanceId,
        pollId,
        status: result.status,
        progress: Number.isFinite(result.progress) ? result.progress : null,
        exportLocations: exportLocationsOf(pollId, result.exportLocations ?? []),
        message: result.errorMessage ?? null,
        now: this.clock(),
      },
      this.context(pollId),
      { retryOnConflict: 5 },
    );
  }

  /** A driver that fails to answer has failed the creation (Manila: status error). */
  private async statusOf(
    driver: ShareDriver,
    commandId: string,
    share: ShareInstanceRef,
  ): Promise<ShareStatusResult> {
    try {
      return await driver.getShareStatus({ commandId, share });
    } catch (error) {
      return {
        status: 'error',
        progress: 0,
        errorMessage:
          error instanceof DriverError
            ? error.userMessage
            : 'Driver failed to report on the share being created from a snapshot.',
      };
    }
  }

  private context(commandId: string): CommandContext {
    return { commandId, causationId: commandId, userId: 'share-node' };
  }
}
