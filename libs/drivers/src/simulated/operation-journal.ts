import fs from 'node:fs';
import path from 'node:path';
import type { DriverErrorData } from '../contract/driver-error.js';

export type JournalOutcome = 'ok' | 'failed' | 'duplicate';

/** One line of the journal. `request` is kept whole so state can be rebuilt from it. */
export interface JournalEntry {
  readonly seq: number;
  readonly time: string;
  readonly backend: string;
  readonly operation: string;
  readonly commandId: string;
  /** Every resource id the request names (share, instance, snapshot instance ids). */
  readonly ids: readonly string[];
  readonly outcome: JournalOutcome;
  readonly request: unknown;
  readonly error?: DriverErrorData;
}

/** Append-only JSON-lines file, written synchronously so an entry exists before the answer. */
export class OperationJournal {
  private fd: number | null = null;

  constructor(private readonly file: string) {}

  static read(file: string): JournalEntry[] {
    if (!fs.existsSync(file)) return [];
    const entries: JournalEntry[] = [];
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        entries.push(JSON.parse(line) as JournalEntry);
      } catch {
        // A torn last line from a crash mid-write: that call never answered.
      }
    }
    return entries;
  }

  open(): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    this.dropTornTail();
    this.fd = fs.openSync(this.file, 'a');
  }

  /** Cuts a partial last line left by a crash, so the next entry starts on a line of its own. */
  private dropTornTail(): void {
    if (!fs.existsSync(this.file)) return;
    const content = fs.readFileSync(this.file);
    if (content.length === 0 || content[content.length - 1] === 0x0a) return;
    fs.truncateSync(this.file, content.lastIndexOf(0x0a) + 1);
  }

  append(entry: JournalEntry): void {
    if (this.fd === null) throw new Error('journal is not open');
    fs.writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}

/** Resource ids named anywhere in a request, for the journal's `ids`. */
export function collectResourceIds(request: unknown): string[] {
  const ids = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'string' && key !== 'commandId' && /Id$/.test(key)) ids.add(inner);
      else if (typeof inner === 'object') visit(inner);
    }
  };
  visit(request);
  return [...ids];
}
