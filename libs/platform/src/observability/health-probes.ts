/** What one readiness check found: ready or not, and what an operator needs to know why. */
export interface ProbeResult {
  readonly ready: boolean;
  readonly [detail: string]: unknown;
}

export type Probe = () => ProbeResult | Promise<ProbeResult>;

/**
 * The readiness checks of this process. Each part registers its own (the scheduler that it holds
 * reports, a share node that its back ends are initialised); the health endpoint runs them all.
 */
export class HealthProbes {
  private readonly probes = new Map<string, Probe>();

  register(name: string, probe: Probe): void {
    this.probes.set(name, probe);
  }

  /** Every probe's result; a probe that throws is not ready, with its error. */
  async check(): Promise<Map<string, ProbeResult>> {
    const results = new Map<string, ProbeResult>();
    for (const [name, probe] of this.probes) {
      try {
        results.set(name, await probe());
      } catch (error) {
        results.set(name, {
          ready: false,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return results;
  }
}
