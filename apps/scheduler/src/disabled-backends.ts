import type { ProcessManager } from '#hawser/process-managers';
import { BACKENDS, backendsProjection, type BackendDocument } from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import type { PoolStateRegistry } from '#hawser/scheduler';

/**
 * The back ends an admin disabled (`manila service-disable`): their pools leave the scheduler's
 * registry and their reports are ignored until they are enabled again, so they receive no new
 * placement. As Manila's scheduler reads the services table on each request, the set is read
 * from the back ends' read model before each scheduling event: a disable the API has answered
 * (it waits for the read models) holds for every request made after it. The read model is read
 * again only when its checkpoint has moved, which its every write does.
 */
export class DisabledBackends {
  private readonly disabled = new Set<string>();
  /** The back ends projection's checkpoint when last read (null: never read). */
  private readAt: number | undefined | null = null;

  constructor(
    private readonly documents: DocumentStore,
    private readonly registry: PoolStateRegistry,
  ) {}

  /** Whether reports of this back end are to be ignored. */
  has(backend: string): boolean {
    return this.disabled.has(backend);
  }

  private async refresh(): Promise<void> {
    const checkpoint = await this.documents.readCheckpoint(backendsProjection.name);
    if (checkpoint === this.readAt) return;
    this.readAt = checkpoint;
    const backends = await this.documents.find<BackendDocument>(BACKENDS, {});
    for (const backend of backends) {
      if (backend.disabled && !this.disabled.has(backend.backend)) {
        this.disabled.add(backend.backend);
        this.registry.removeBackend(backend.backend);
      } else if (!backend.disabled) {
        // Enabled again: its next report brings its pools back.
        this.disabled.delete(backend.backend);
      }
    }
  }

  /**
   * The process manager, reading the disabled back ends before each event it handles. The events
   * of one page, handled side by side, ask at once: one read, started by the first of them after
   * the page was read, answers them all. Each manager keeps its own, since another manager's
   * pages are read at other times.
   */
  guard(manager: ProcessManager): ProcessManager {
    let refreshing: Promise<void> | undefined;
    const refreshOnce = () =>
      (refreshing ??= this.refresh().finally(() => {
        refreshing = undefined;
      }));
    return {
      ...manager,
      handle: async (event) => {
        await refreshOnce();
        return manager.handle(event);
      },
    };
  }
}
