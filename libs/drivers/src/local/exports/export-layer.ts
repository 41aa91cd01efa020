import type { NetworkExports } from '../../contract/share-driver.js';
import type { LocalBackendConfig } from '../../config/backend-config.js';
import { removeFile } from '../json-file.js';
import type { LocalLayout } from '../local-layout.js';
import type { ManagedServer } from './managed-server.js';

/**
 * What the NFS and CIFS export layers of one local back end have in common: whether the back end
 * is served, the server the share node runs (if it runs one), and the server file that tells
 * other processes where that server is.
 */
export abstract class ExportLayer {
  abstract readonly serving: NetworkExports;
  private managed: ManagedServer | null = null;

  constructor(
    protected readonly config: LocalBackendConfig,
    protected readonly layout: LocalLayout,
    protected readonly report: (message: string) => void,
  ) {}

  /** Stops the server the share node runs, and says no server serves the back end any more. */
  async stop(): Promise<void> {
    const managed = this.managed;
    this.managed = null;
    if (!managed) return;
    await managed.stop();
    await removeFile(this.serverFile());
  }

  /** The file other processes read to reach this back end's server. */
  protected abstract serverFile(): string;

  /** Runs `server` for the back end; one that does not start yet is retried by its supervisor. */
  protected async runManaged(server: ManagedServer, name: string): Promise<void> {
    this.managed = server;
    try {
      await server.start();
    } catch (error) {
      this.report(`${name} did not start, retrying: ${String(error)}`);
    }
  }
}
