/**
 * Upcasters turn an older version of an event's data into the next version. The store applies
 * the chain on every read, so code only ever sees the current shape.
 */
export type Upcaster = (data: unknown) => unknown;

export class UpcasterRegistry {
  private readonly chains = new Map<string, Map<number, Upcaster>>();
  private readonly current = new Map<string, number>();

  /** Registers the step that reads version `fromVersion` of `type` as `fromVersion + 1`. */
  register(type: string, fromVersion: number, upcast: Upcaster): this {
    const chain = this.chains.get(type) ?? new Map<number, Upcaster>();
    if (chain.has(fromVersion)) {
      throw new Error(`an upcaster for ${type} v${fromVersion} is registered already`);
    }
    chain.set(fromVersion, upcast);
    this.chains.set(type, chain);
    this.current.set(type, Math.max(this.current.get(type) ?? 1, fromVersion + 1));
    return this;
  }

  /** The version new events of this type are written with. */
  currentVersion(type: string): number {
    return this.current.get(type) ?? 1;
  }

  upcast(type: string, version: number, data: unknown): { version: number; data: unknown } {
    const chain = this.chains.get(type);
    let v = version;
    let d = data;
    while (chain?.has(v)) {
      d = (chain.get(v) as Upcaster)(d);
      v += 1;
    }
    return { version: v, data: d };
  }
}
