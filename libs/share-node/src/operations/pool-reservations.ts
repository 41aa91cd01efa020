interface Reservation {
  readonly host: string;
  readonly sizeGiB: number;
  /** When the driver was done with the instance (ms), or null while it is not. */
  settledAt: number | null;
}

/**
 * The node's ledger of placements it accepted that its driver has not yet reported: from the
 * moment a placement is accepted until a pool report measured after the driver finished with
 * it (created or failed). Until then the pool's reported free space does not show it.
 */
export class PoolReservations {
  private readonly byInstance = new Map<string, Reservation>();

  reserve(host: string, instanceId: string, sizeGiB: number): void {
    this.byInstance.set(instanceId, { host, sizeGiB, settledAt: null });
  }

  holds(instanceId: string): boolean {
    return this.byInstance.has(instanceId);
  }

  /** The driver is done with the instance at `at` (ms): a report measured later includes it. */
  settle(instanceId: string, at: number): void {
    const reservation = this.byInstance.get(instanceId);
    if (reservation && reservation.settledAt === null) reservation.settledAt = at;
  }

  /** A report of `host` measured at `measuredAt` (ms) counts what was settled before it. */
  measured(host: string, measuredAt: number): void {
    for (const [instanceId, reservation] of this.byInstance) {
      if (
        reservation.host === host &&
        reservation.settledAt !== null &&
        reservation.settledAt <= measuredAt
      ) {
        this.byInstance.delete(instanceId);
      }
    }
  }

  /** GiB accepted on `host` that its last report does not show. */
  reservedGiB(host: string): number {
    let total = 0;
    for (const reservation of this.byInstance.values()) {
      if (reservation.host === host) total += reservation.sizeGiB;
    }
    return total;
  }
}
