import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { SHARES, type ShareRecord } from '#hawser/projections';
import { ReadModelChanges, type DocumentWrite } from '#hawser/read-models';

/** One share as the share listing's projection just committed it; `record` absent once deleted. */
export interface ShareCommitted {
  readonly shareId: string;
  readonly projectId: string;
  readonly record: ShareRecord | undefined;
}

type Listener = (change: ShareCommitted) => void;

/**
 * The share listing's changes as its projection commits them, for subscriptions. It follows the
 * read models only while anyone listens (so a process without subscriptions does not even
 * decode the projector's changes), and meanwhile remembers each changed share's project, so a
 * deletion (which carries only the id, and always follows a change to `deleting`) still reaches
 * the subscribers of that project.
 */
@Injectable()
export class ShareChangeFeed implements OnModuleDestroy {
  private readonly listeners = new Set<Listener>();
  private readonly projectOf = new Map<string, string>();
  private stop: (() => void) | undefined;

  constructor(private readonly changes: ReadModelChanges) {}

  /** Returns the function that stops listening. */
  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    this.stop ??= this.changes.listen(SHARES, (writes) => writes.forEach((w) => this.committed(w)));
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      this.projectOf.clear();
      this.stop?.();
      this.stop = undefined;
    };
  }

  onModuleDestroy(): void {
    this.stop?.();
  }

  private committed(write: DocumentWrite): void {
    let change: ShareCommitted | undefined;
    if (write.kind === 'put') {
      const record = write.document as ShareRecord;
      this.projectOf.set(record.id, record.project_id);
      change = { shareId: record.id, projectId: record.project_id, record };
    } else {
      const projectId = this.projectOf.get(write.id);
      this.projectOf.delete(write.id);
      if (projectId !== undefined) change = { shareId: write.id, projectId, record: undefined };
    }
    if (change) for (const listener of this.listeners) listener(change);
  }
}
