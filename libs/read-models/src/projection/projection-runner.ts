import { setImmediate } from 'node:timers/promises';
import type { EventStore } from '#hawser/eventstore';
import type { DocumentStore } from '../document-store.port.js';
import type { ReadModelChanges } from '../changes/read-model-changes.js';
import { LogFollowers } from '../subscription/log-followers.js';
import { CommitRound } from './commit-round.js';
import { sparseIndexOf, type Projection } from './projection.js';
import { GenerationTarget, isFirstCatchUp, LiveTarget } from './projection-target.js';
import { ProjectionWorker, type ProjectionWorkerOptions } from './projection-worker.js';

export interface ProjectionRunnerOptions {
  /** Most events per batch and commit (default 1,000): large while catching up. */
  readonly batchSize?: number;
  /** Longest sleep when caught up without an append signal (default 1,000 ms). */
  readonly pollIntervalMs?: number;
  /** Where the live collections' committed writes are published (GraphQL subscriptions). */
  readonly changes?: ReadModelChanges;
}

export interface ProjectionStatus {
  readonly name: string;
  /** How far the log has been examined and committed. */
  readonly position: number;
  readonly rebuilding: boolean;
  /** While rebuilding: how far the new generation has read, against the log's head. */
  readonly rebuild?: RebuildProgress;
  /** Message of the last failure, while batches keep failing. */
  readonly error?: string;
}

export interface RebuildProgress {
  /** The log position the rebuild has read and committed up to. */
  readonly position: number;
  /** The log's head when that position was reached. */
  readonly head: number;
  /** `position` as a whole percentage of `head` (100 for an empty log). */
  readonly percent: number;
}

/** A rebuild's position as a share of the head; positions are SQLite's sequence or KurrentDB's commit position, both rising with the log. */
export const rebuildProgress = (position: number, head: number): RebuildProgress => ({
  position,
  head,
  percent: head <= 0 ? 100 : Math.min(100, Math.floor((position * 100) / head)),
});

const DEFAULTS = { batchSize: 1_000, pollIntervalMs: 1_000, idleCheckpointGap: 10_000 };

/** Each projection's version its read model was last written at, by projection name. */
export const PROJECTION_VERSIONS = 'projection_versions';

interface StoredVersion {
  readonly id: string;
  readonly version: number;
}

const versionOf = (projection: Projection): number => projection.version ?? 1;

/**
 * Keeps read models up to date: one worker per projection, each catching up from its stored
 * checkpoint in large batches and then following the log live. Queries that must see a write
 * call `waitForPosition` with the write's log position.
 */
export class ProjectionRunner {
  private readonly workers: LogFollowers<ProjectionWorker>;
  /** Projections being rebuilt, with how far each rebuild has read. */
  private readonly rebuilding = new Map<string, RebuildProgress>();
  private readonly workerOptions: ProjectionWorkerOptions;

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    projections: readonly Projection[],
    options: ProjectionRunnerOptions = {},
  ) {
    this.workers = new LogFollowers(events, 'projection');
    this.workerOptions = {
      batchSize: options.batchSize ?? DEFAULTS.batchSize,
      pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
      idleCheckpointGap: DEFAULTS.idleCheckpointGap,
      onProgress: this.workers.progressed,
    };
    // The live projections write one store: the batches they handle together commit together.
    const round = new CommitRound(documents);
    for (const projection of projections) {
      const target = new LiveTarget(
        documents,
        projection.name,
        projection.collections,
        round,
        (writes) => options.changes?.publish(writes),
      );
      this.workers.add(
        projection.name,
        new ProjectionWorker(projection, events, documents, target, this.workerOptions),
      );
    }
  }

  /**
   * Creates declared indexes and kept counts, loads checkpoints and starts every worker; does not wait for
   * catch-up. A projection's first catch-up fills empty collections: its indexes are built
   * once, as it reaches the head of the log, which costs less than keeping them on every
   * write; until then its reads are complete, only slower.
   */
  async start(): Promise<{ discardedGenerations: string[] }> {
    // Whoever starts a runner projects, and so alone rebuilds: a generation still prepared is
    // what a rebuild left when it failed or its process died, and nobody will swap it in.
    const discardedGenerations = await this.documents.discardPreparedGenerations();
    await this.workers.start(async (worker) => {
      const { projection } = worker;
      const createIndexes = async () => {
        for (const [collection, indexes] of Object.entries(projection.retiredIndexes ?? {})) {
          for (const fields of indexes) await this.documents.dropIndex(collection, fields);
        }
        for (const [collection, indexes] of Object.entries(projection.indexes ?? {})) {
          for (const fields of indexes) await this.documents.ensureIndex(collection, fields);
        }
        for (const [collection, indexes] of Object.entries(projection.sparseIndexes ?? {})) {
          for (const index of indexes) {
            const { fields, options } = sparseIndexOf(index);
            await this.documents.ensureIndex(collection, fields, options);
          }
        }
        for (const [collection, counts] of Object.entries(projection.counts ?? {})) {
          for (const fields of counts) await this.documents.ensureCount(collection, fields);
        }
      };
      if (await isFirstCatchUp(this.documents, projection.name, projection.collections)) {
        // Empty collections are filled in the current shape: nothing written before to rebuild.
        await this.recordVersion(projection);
        worker.onceCaughtUp(createIndexes);
      } else {
        await createIndexes();
      }
    });
    return { discardedGenerations };
  }

  /**
   * Rebuilds, one after another, the projections whose read model was written at a lower
   * version than theirs (see `Projection.version`), recording the version once swapped; a store
   * that never recorded one was written at version 1. Resolves with the names rebuilt; a stop
   * meanwhile (a shutdown) ends it quietly, and what it did not finish is rebuilt at the next
   * start, since only a swapped rebuild records its version.
   */
  async rebuildOutdated(): Promise<string[]> {
    const rebuilt: string[] = [];
    for (const { projection } of this.workers.all()) {
      if (!this.workers.running) break;
      const stored = await this.documents.get<StoredVersion>(PROJECTION_VERSIONS, projection.name);
      if ((stored?.version ?? 1) >= versionOf(projection)) continue;
      try {
        await this.rebuild(projection.name);
      } catch (error) {
        if (!this.workers.running) break;
        throw error;
      }
      rebuilt.push(projection.name);
    }
    return rebuilt;
  }

  /** Lets running batches finish and stops; pending waits resolve with whether they were reached. */
  stop(): Promise<void> {
    return this.workers.stop();
  }

  /**
   * Resolves true once every projection has examined the log up to `position` (whether or not
   * the event there concerned it), or false after `timeoutMs`. Never rejects.
   */
  waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    return this.workers.waitForPosition(position, timeoutMs);
  }

  /** See `LogFollowers.onReached`: how far every projection has examined the log, as it moves. */
  onReached(listener: (position: number) => void): void {
    this.workers.onReached(listener);
  }

  /** See `LogFollowers.appendedElsewhere`: another process appended up to `position`. */
  appendedElsewhere(position: number): void {
    this.workers.appendedElsewhere(position);
  }

  /**
   * Rebuilds a projection from the start of the log into a fresh generation of its collections
   * while the live generation keeps answering reads and following the log. Once the rebuild
   * has caught up, its indexes are built, then the live worker pauses briefly, the rebuild takes the last events up to the
   * same position, and the new generation is swapped in; the live worker then continues on it.
   * Resolves when swapped. If it fails, the live generation stays as it was and the new one is
   * dropped.
   */
  async rebuild(name: string): Promise<void> {
    const live = this.workers.get(name);
    if (live === undefined) throw new Error(`no projection named ${name}`);
    if (!this.workers.running) throw new Error('start the projection runner before a rebuild');
    if (this.rebuilding.has(name)) throw new Error(`projection ${name} is already being rebuilt`);
    // Marked before anything is awaited, so that a second rebuild is refused at once.
    this.rebuilding.set(name, rebuildProgress(0, live.examined));
    try {
      const { collections } = live.projection;
      const generation = await this.documents.prepareGeneration(collections);
      try {
        await this.rebuildInto(live, generation);
      } catch (error) {
        // The rebuild's own failure is the one to report; a generation that cannot be dropped
        // now is dropped when a runner next starts.
        await this.documents.discardPreparedGenerations(generation).catch(() => undefined);
        throw error;
      }
      await this.recordVersion(live.projection);
    } finally {
      this.rebuilding.delete(name);
    }
  }

  private async rebuildInto(live: ProjectionWorker, generation: string): Promise<void> {
    const { name, collections } = live.projection;
    const rebuild = new ProjectionWorker(
      live.projection,
      this.events,
      this.documents,
      new GenerationTarget(this.documents, generation),
      this.workerOptions,
    );
    const reportProgress = async () => {
      const head = await this.events.headPosition();
      this.rebuilding.set(name, rebuildProgress(rebuild.examined, head));
    };
    // Catch up without ever passing the live worker, so both end on the same position.
    const catchUp = async () => {
      while (!(await rebuild.step(live.examined))) {
        this.assertRunning();
        await reportProgress();
        // SQLite answers synchronously: without a turn of the event loop between batches,
        // requests (reads, the rebuild's own progress) would wait for the whole rebuild.
        await setImmediate();
      }
      await reportProgress();
    };
    await catchUp();
    // Indexes are built once over the loaded generation (cheaper than maintained on every
    // write), before the pause, so the live worker waits only for what came in meanwhile.
    await this.documents.indexGeneration(collections, generation);
    await catchUp();
    await live.pause();
    try {
      this.assertRunning();
      while (rebuild.examined < live.examined) await rebuild.step(live.examined);
      await this.documents.swap(collections, generation);
    } finally {
      live.resume();
    }
  }

  /**
   * Holds one projection where it is (after its running batch) until `resume`: for maintenance
   * on its read model. Its lag grows meanwhile, and readiness says so.
   */
  async pause(name: string): Promise<void> {
    const worker = this.workers.get(name);
    if (worker === undefined) throw new Error(`no projection named ${name}`);
    await worker.pause();
  }

  resume(name: string): void {
    this.workers.get(name)?.resume();
  }

  /** The running projections; none before `start` (a standby projector follows nothing). */
  status(): ProjectionStatus[] {
    if (!this.workers.running) return [];
    return this.workers.all().map((worker) => {
      const rebuild = this.rebuilding.get(worker.projection.name);
      return {
        name: worker.projection.name,
        position: worker.examined,
        rebuilding: rebuild !== undefined,
        ...(rebuild ? { rebuild } : {}),
        ...(worker.lastError ? { error: worker.lastError.message } : {}),
      };
    });
  }

  /** A crash before this is recorded only means one more rebuild at the next start. */
  private async recordVersion(projection: Projection): Promise<void> {
    const document: StoredVersion = { id: projection.name, version: versionOf(projection) };
    await this.documents.write([{ kind: 'put', collection: PROJECTION_VERSIONS, document }]);
  }

  private assertRunning(): void {
    if (!this.workers.running) throw new Error('the projection runner stopped during a rebuild');
  }
}
