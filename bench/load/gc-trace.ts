/** V8's heap after one full collection of one process, in MiB. */
export interface HeapAfterGc {
  /** What the collection kept: the objects still reachable. */
  readonly liveMiB: number;
  /** The heap's size: what V8 holds from the system for it, garbage included. */
  readonly committedMiB: number;
}

/**
 * `[pid:0x…]  1234 ms: Mark-Compact 120.5 (150.2) -> 50.3 (140.1) MB, …`: the line V8 prints
 * after each full collection under `--trace-gc` (scavenges left out by
 * `--trace-gc-ignore-scavenger`).
 */
const FULL_GC =
  /\[(\d+):0x[0-9a-f]+\]\s+\d+ ms: Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \(([\d.]+)\) MB/g;

/**
 * The last full collection of every process whose output is fed in, by pid. A retained object
 * survives every collection, so the live heap after one is what grows when something leaks;
 * the resident memory also moves with the garbage a process allocates between collections.
 */
export class FullGcTrace {
  /** Node's arguments that make a process print the lines read here. */
  static readonly NODE_ARGUMENTS = ['--trace-gc', '--trace-gc-ignore-scavenger'] as const;

  private readonly latest = new Map<number, HeapAfterGc>();
  private partial = '';

  /** Takes a chunk of a process's output (lines may span chunks). */
  feed(chunk: string): void {
    const text = this.partial + chunk;
    const end = text.lastIndexOf('\n') + 1;
    this.partial = text.slice(end).slice(-1_000);
    for (const match of text.slice(0, end).matchAll(FULL_GC)) {
      this.latest.set(Number(match[1]), {
        liveMiB: Number(match[2]),
        committedMiB: Number(match[3]),
      });
    }
  }

  /** The heap after the last full collection of `pid`, if it had one. */
  of(pid: number): HeapAfterGc | undefined {
    return this.latest.get(pid);
  }
}
