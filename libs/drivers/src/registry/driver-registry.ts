import type { ShareDriver } from '../contract/share-driver.js';
import type { BackendConfig } from '../config/backend-config.js';
import { validateBackendConfig } from '../config/backend-config.validate.js';
import { LocalShareDriver } from '../local/local.driver.js';
import { SimulatedShareDriver } from '../simulated/simulated.driver.js';

/** Where a driver says what happens outside requests (a file server restarted), per back end. */
export type DriverReport = (backend: string, message: string) => void;

/** Builds the driver a back-end configuration entry names (not yet initialized). */
export function createDriver(config: BackendConfig, report?: DriverReport): ShareDriver {
  validateBackendConfig(config);
  switch (config.driver) {
    case 'simulated':
      return new SimulatedShareDriver(config);
    case 'local':
      return report
        ? new LocalShareDriver(config, (message) => report(config.name, message))
        : new LocalShareDriver(config);
    default:
      return assertNever(config);
  }
}

function assertNever(config: never): never {
  throw new Error(`unknown driver in ${JSON.stringify(config)}`);
}

/** The drivers of one share node, by back end (`host@backend`). */
export class DriverRegistry {
  private readonly drivers = new Map<string, ShareDriver>();

  /** Initializes every back end's driver; if one fails, closes those already started. */
  static async start(
    configs: readonly BackendConfig[],
    report?: DriverReport,
  ): Promise<DriverRegistry> {
    const registry = new DriverRegistry();
    try {
      for (const config of configs) {
        if (registry.drivers.has(config.name)) {
          throw new Error(`back end ${config.name} is configured twice`);
        }
        const driver = createDriver(config, report);
        await driver.initialize();
        registry.drivers.set(config.name, driver);
      }
    } catch (error) {
      await registry.close();
      throw error;
    }
    return registry;
  }

  /** The driver serving a back end (`host@backend`) or a pool (`host@backend#pool`). */
  get(hostOrBackend: string): ShareDriver {
    const backend = hostOrBackend.split('#')[0] ?? hostOrBackend;
    const driver = this.drivers.get(backend);
    if (!driver) throw new Error(`no driver for back end ${backend}`);
    return driver;
  }

  has(hostOrBackend: string): boolean {
    return this.drivers.has(hostOrBackend.split('#')[0] ?? hostOrBackend);
  }

  all(): ShareDriver[] {
    return [...this.drivers.values()];
  }

  async close(): Promise<void> {
    for (const driver of this.drivers.values()) await driver.close();
    this.drivers.clear();
  }
}
