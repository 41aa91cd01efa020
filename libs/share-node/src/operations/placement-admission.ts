import type { CommandHandler } from '#hawser/application';
import {
  derivedId,
  shareDecider,
  shareStream,
  type PlacementCommand,
  type ReplicaScheduled,
  type ShareScheduled,
  isActiveShare,
} from '#hawser/domain';
import type { BackendStatsReport, PoolCapabilities } from '#hawser/drivers';
import { useThinLogic } from '#hawser/scheduler';
import { lackOfRoom } from './pool-room.js';
import { PoolReservations } from './pool-reservations.js';

/** A placement of one instance (a share's or a replica) as the scheduler recorded it. */
interface InstancePlacement {
  readonly instanceId: string;
  readonly host: string;
  readonly size: number;
}

/**
 * Closes the window two schedulers leave open: each decides on its own view of the pools, so
 * both may pick the same emptiest pool before either hears of the other's placement. Before
 * creating a share or a replica, the node checks the placement against its pool's last report
 * minus what it accepted since (shares and replicas alike), and hands back one that no longer
 * fits (SharePlacementRejected, ReplicaPlacementRejected), so the scheduler places it elsewhere.
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
   * Whether the node goes on to create the scheduled share instance. A placement superseded
   * (the instance gone, handed back, or placed elsewhere since) creates nothing here; one
   * already claimed (a replay) goes on: the claim then decides nothing.
   */
  admit(shareId: string, placement: ShareScheduled['data'], eventId: string): Promise<boolean> {
    return this.admitInstance(shareId, placement, eventId, (message, now) => ({
      type: 'RejectSharePlacement',
      instanceId: placement.instanceId,
      host: placement.host,
      message,
      now,
    }));
  }

  /** The same for a scheduled replica: it takes the share's size on its pool too. */
  admitReplica(
    shareId: string,
    placement: ReplicaScheduled['data'],
    eventId: string,
  ): Promise<boolean> {
    const instance = {
      instanceId: placement.replicaId,
      host: placement.host,
      size: placement.size,
    };
    return this.admitInstance(shareId, instance, eventId, (message, now) => ({
      type: 'RejectReplicaPlacement',
      replicaId: placement.replicaId,
      host: placement.host,
      message,
      now,
    }));
  }

  /** The driver is done with the instance (created or failed). */
  settle(instanceId: string): void {
    this.reservations.settle(instanceId, this.clock());
  }

  private async admitInstance(
    shareId: string,
    placement: InstancePlacement,
    eventId: string,
    rejection: (message: string, now: string) => PlacementCommand,
  ): Promise<boolean> {
    const { state } = await this.commands.load(shareDecider, shareStream(shareId));
    if (!isActiveShare(state)) return false;
    const instance = state.instances.find((i) => i.id === placement.instanceId);
    if (instance?.host !== placement.host) return false;
    const standing = instance.status === 'creating' && !instance.pendingOperation;
    const pool = this.pools.get(placement.host);
    if (!standing || !pool || this.reservations.holds(placement.instanceId)) return true;
    const lack = lackOfRoom(pool, {
      sizeGiB: placement.size,
      reservedGiB: this.reservations.reservedGiB(placement.host),
      thinLogic: useThinLogic(state.shareType?.extraSpecs ?? {}),
      // A replica's request carries the share's snapshot_id too (reference 6.2).
      fromSnapshot: state.snapshotId !== null,
    });
    if (lack === null) {
      this.reservations.reserve(placement.host, placement.instanceId, placement.size);
      return true;
    }
    await this.commands.handle(
      shareDecider,
      shareStream(shareId),
      rejection(lack, new Date(this.clock()).toISOString()),
      {
        commandId: derivedId(eventId, 'reject_placement'),
        causationId: eventId,
        userId: 'share-node',
      },
      { retryOnConflict: 5 },
    );
    return false;
  }
}
