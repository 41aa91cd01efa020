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
 * The share listing's changes as its projection commits them, for subscriptions. While anyone
 * listens it remembers each changed share's project, so a deletion (which carries only the id,
 * and always follows a change to `deleting`) still reaches the subscribers of that project.
 */
@Injectable()
export class ShareChangeFeed implements OnModuleDestroy {
  private readonly listeners = new Set<Listener>();
  private readonly projectOf = new Map<string, string>();
  private readonly stop: () => void;

  constructor(changes: ReadModelChanges) {
    this.stop = changes.listen(SHARES, (writes) => writes.forEach((w) => this.committed(w)));
  }

  /** Returns the function that stops listening. */
  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.projectOf.clear();
    };
  }

  onModuleDestroy(): void {
    this.stop();
  }

  private committed(write: DocumentWrite): void {
    if (this.listeners.size === 0) return;
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
