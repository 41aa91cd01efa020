import type { CommandHandler } from '#hawser/application';
import { derivedId, shareDecider, shareStream, type ShareScheduled } from '#hawser/domain';
import type { BackendStatsReport, PoolCapabilities } from '#hawser/drivers';
import { useThinLogic } from '#hawser/scheduler';
import { lackOfRoom } from './pool-room.js';
import { PoolReservations } from './pool-reservations.js';

/**
 * Closes the window two schedulers leave open: each decides on its own view of the pools, so
 * both may pick the same emptiest pool before either hears of the other's placement. Before
 * creating, the node checks the placement against its pool's last report minus what it
 * accepted since, and hands back one that no longer fits (SharePlacementRejected), so the
 * scheduler places it elsewhere.
 */
export class PlacementAdmission {
  private readonly pools = new Map<string, PoolCapabilities>();
  private readonly reservations = new PoolReservations();

  constructor(
    private readonly commands: CommandHandler,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The node's report of one back end, measured at `measuredAt` (ms, taken before the call). */
  observe(report: BackendStatsReport, measuredAt: number): void {
    for (const pool of report.pools) {
      this.pools.set(pool.name, pool.capabilities);
      this.reservations.measured(pool.name, measuredAt);
    }
  }

  /**
   * Whether the node goes on to create the scheduled instance. A placement no longer standing
   * (a replay after the claim) goes on: the claim then decides nothing.
   */
  async admit(shareId: string, placement: ShareScheduled['data'], eventId: string) {
    const { state } = await this.commands.load(shareDecider, shareStream(shareId));
    const instance = state.instances.find((i) => i.id === placement.instanceId);
    const standing =
      instance?.host === placement.host &&
      instance.status === 'creating' &&
      !instance.pendingOperation;
    const pool = this.pools.get(placement.host);
    if (!standing || !pool || this.reservations.holds(placement.instanceId)) return true;
    const lack = lackOfRoom(pool, {
      sizeGiB: placement.size,
      reservedGiB: this.reservations.reservedGiB(placement.host),
      thinLogic: useThinLogic(state.shareType?.extraSpecs ?? {}),
      fromSnapshot: state.snapshotId !== null,
    });
    if (lack === null) {
      this.reservations.reserve(placement.host, placement.instanceId, placement.size);
      return true;
    }
    await this.commands.handle(
      shareDecider,
      shareStream(shareId),
      {
        type: 'RejectSharePlacement',
        instanceId: placement.instanceId,
        host: placement.host,
        message: lack,
        now: new Date(this.clock()).toISOString(),
      },
      {
        commandId: derivedId(eventId, 'reject_placement'),
        causationId: eventId,
        userId: 'share-node',
      },
      { retryOnConflict: 5 },
    );
    return false;
  }

  /** The driver is done with the instance (created or failed). */
  settle(instanceId: string): void {
    this.reservations.settle(instanceId, this.clock());
  }
}
