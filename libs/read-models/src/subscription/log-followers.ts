import type { EventStore } from '#hawser/eventstore';
import { AppendSignal } from './append-signal.js';
import { PositionWaiters } from './position-waiters.js';

/** A worker that follows the log on its own checkpoint (a projection, a process manager). */
export interface LogFollower {
  /** How far it has dealt with the log. */
  readonly examined: number;
  load(): Promise<void>;
  start(signal: AppendSignal): void;
  stop(): Promise<void>;
}

/**
 * The lifecycle a set of log followers shares: one append signal that wakes them, start and
 * stop, and waiting until all of them have passed a log position. The projection runner and
 * the process-manager runner each own one.
 */
export class LogFollowers<Worker extends LogFollower> {
  private readonly workers = new Map<string, Worker>();
  private readonly signal: AppendSignal;
  private readonly waiters: PositionWaiters;
  private state: 'new' | 'started' | 'stopped' = 'new';

  /** `kind` names the followers in errors, e.g. "projection". */
  constructor(
    events: EventStore,
    private readonly kind: string,
  ) {
    this.signal = new AppendSignal(events);
    this.waiters = new PositionWaiters(() => this.reached());
  }

  /** Workers call this when they have moved on, so waits can resolve. */
  readonly progressed = (): void => this.waiters.progressed();

  add(name: string, worker: Worker): void {
    if (this.workers.has(name)) throw new Error(`two ${this.kind}s are named ${name}`);
    this.workers.set(name, worker);
  }

  get(name: string): Worker | undefined {
    return this.workers.get(name);
  }

  names(): string[] {
    return [...this.workers.keys()];
  }

  all(): Worker[] {
    return [...this.workers.values()];
  }

  get running(): boolean {
    return this.state === 'started';
  }

  /** Runs `prepare` and loads each worker's checkpoint, then starts them all; no catch-up wait. */
  async start(prepare: (worker: Worker) => Promise<void> = async () => undefined): Promise<void> {
    if (this.state !== 'new') throw new Error(`the ${this.kind} runner is ${this.state}`);
    this.state = 'started';
    for (const worker of this.workers.values()) {
      await prepare(worker);
      await worker.load();
    }
    await this.signal.open();
    for (const worker of this.workers.values()) worker.start(this.signal);
  }

  /** Lets work in hand finish and stops; pending waits resolve with whether they were reached. */
  async stop(): Promise<void> {
    if (this.state !== 'started') return;
    this.state = 'stopped';
    const stopping = [...this.workers.values()].map((worker) => worker.stop());
    this.signal.notify();
    await Promise.all(stopping);
    await this.signal.close();
    this.waiters.releaseAll();
  }

  /**
   * Resolves true once every worker has dealt with the log up to `position` (whether or not the
   * event there concerned it), or false after `timeoutMs`. Never rejects.
   */
  waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    const waiting = this.waiters.wait(position, timeoutMs);
    // Appends by another process reach the workers by polling; ask them to look now.
    if (this.reached() < position) this.signal.notify();
    return waiting;
  }

  /** How far every worker has dealt with the log. */
  private reached(): number {
    if (this.state === 'new') return 0;
    let reached = Number.POSITIVE_INFINITY;
    for (const worker of this.workers.values()) reached = Math.min(reached, worker.examined);
    return reached === Number.POSITIVE_INFINITY ? 0 : reached;
  }
}
