import type { EventStore } from '#hawser/eventstore';
import { AppendSignal } from './append-signal.js';
import { PositionWaiters } from './position-waiters.js';
import { SharedLogReader } from './shared-log-reader.js';

/** A worker that follows the log on its own checkpoint (a projection, a process manager). */
export interface LogFollower {
  /** How far it has dealt with the log. */
  readonly examined: number;
  load(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/** Longest wait for an append signal before the log is looked at anyway (another process). */
const POLL_INTERVAL_MS = 1_000;

/**
 * The lifecycle a set of log followers shares: start and stop, waiting until all of them have
 * passed a log position, and one append signal on which the process's shared log reader looks
 * at the log for the followers asleep in it (one read per burst of appends, not one per
 * follower). The projection runner and the process-manager runner each own one.
 */
export class LogFollowers<Worker extends LogFollower> {
  private readonly workers = new Map<string, Worker>();
  private readonly signal: AppendSignal;
  private readonly waiters: PositionWaiters;
  private state: 'new' | 'started' | 'stopped' = 'new';
  private looking: Promise<void> | undefined;
  private readonly reachedListeners = new Set<(position: number) => void>();
  /** The last position the listeners were told of. */
  private announced = 0;
  /** The highest position another process appended up to (`appendedElsewhere`). */
  private awaited = 0;

  /** `kind` names the followers in errors, e.g. "projection". */
  constructor(
    private readonly events: EventStore,
    private readonly kind: string,
  ) {
    this.signal = new AppendSignal(events);
    this.waiters = new PositionWaiters(() => this.reached());
  }

  /** Workers call this when they have moved on, so waits can resolve. */
  readonly progressed = (): void => {
    this.waiters.progressed();
    // Only while another process waits for a position not yet announced.
    if (this.reachedListeners.size === 0 || this.announced >= this.awaited) return;
    const reached = this.reached();
    if (reached > this.announced) this.announce(reached);
  };

  /**
   * Calls `listener` with how far every follower has dealt with the log each time that moves
   * on while another process waits for a position it appended up to (`appendedElsewhere`), and
   * when that process asks for one passed already.
   */
  onReached(listener: (position: number) => void): void {
    this.reachedListeners.add(listener);
  }

  /**
   * Another process appended up to `position` and waits for it: the log is looked at now rather
   * than at the next poll, or, when the followers have passed it already, the listeners are told
   * again where they stand (the asker may have missed it).
   */
  appendedElsewhere(position: number): void {
    this.awaited = Math.max(this.awaited, position);
    const reached = this.reached();
    if (reached < position) this.signal.notify();
    else this.announce(reached);
  }

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
    for (const worker of this.workers.values()) worker.start();
    this.looking = this.lookOnAppends();
  }

  /** Lets work in hand finish and stops; pending waits resolve with whether they were reached. */
  async stop(): Promise<void> {
    if (this.state !== 'started') return;
    this.state = 'stopped';
    const stopping = [...this.workers.values()].map((worker) => worker.stop());
    this.signal.notify();
    await Promise.all(stopping);
    await this.looking;
    await this.signal.close();
    this.waiters.releaseAll();
  }

  /**
   * Resolves true once every worker has dealt with the log up to `position` (whether or not the
   * event there concerned it), or false after `timeoutMs`. Never rejects.
   */
  waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    const waiting = this.waiters.wait(position, timeoutMs);
    // Appends by another process are found by polling; look now.
    if (this.reached() < position) this.signal.notify();
    return waiting;
  }

  /** On each append signal (or poll, or wait for a position), the log is read for the sleepers. */
  private async lookOnAppends(): Promise<void> {
    const reader = SharedLogReader.of(this.events);
    while (this.state === 'started') {
      const version = this.signal.version;
      reader.lookNow();
      await this.signal.wait(version, POLL_INTERVAL_MS);
    }
  }

  private announce(reached: number): void {
    this.announced = reached;
    for (const listener of this.reachedListeners) listener(reached);
  }

  /** How far every worker has dealt with the log. */
  private reached(): number {
    if (this.state === 'new') return 0;
    let reached = Number.POSITIVE_INFINITY;
    for (const worker of this.workers.values()) reached = Math.min(reached, worker.examined);
    return reached === Number.POSITIVE_INFINITY ? 0 : reached;
  }
}
