import type { EventFilter, RecordedEvent } from '#hawser/eventstore';
import type { Identified } from '../document-store.port.js';
import type { Projection, ProjectionContext, SparseIndex } from './projection.js';

/** What the helper keeps on every stream document: its id and the stream revision it reflects. */
export interface StreamDocument {
  readonly id: string;
  readonly revision: number;
}

/** A stream document as `evolve` returns it: the helper sets its id and revision. */
export type StreamDocumentBody<D extends StreamDocument> = Omit<D, keyof StreamDocument>;

/**
 * Documents of another collection that show items of a stream document (a share's instances,
 * its snapshots): written from the items after each event, removed when an item goes or the
 * stream document is deleted.
 */
export interface DerivedCollection<D extends StreamDocument> {
  readonly collection: string;
  write(before: D | undefined, after: D | undefined, ctx: ProjectionContext): void;
}

export interface DerivedCollectionOptions<D extends StreamDocument, I extends { id: string }> {
  readonly collection: string;
  readonly items: (document: D) => readonly I[];
  readonly toDocument: (document: D, item: I) => Identified;
  /**
   * `every-event`: every item's document is written again whenever the stream moves (it shows
   * fields of the whole stream, or its revision). `when-changed`: only items that `evolve` gave
   * a new object are written (unchanged items keep their object, so their documents stand).
   */
  readonly rewrite: 'every-event' | 'when-changed';
}

export const derivedCollection = <D extends StreamDocument, I extends { id: string }>(
  options: DerivedCollectionOptions<D, I>,
): DerivedCollection<D> => ({
  collection: options.collection,
  write(before, after, ctx) {
    const previous = new Map((before ? options.items(before) : []).map((i) => [i.id, i]));
    const current = after ? options.items(after) : [];
    const kept = new Set(current.map((i) => i.id));
    for (const id of previous.keys()) {
      if (!kept.has(id)) ctx.delete(options.collection, id);
    }
    if (after === undefined) return;
    for (const item of current) {
      if (options.rewrite === 'when-changed' && previous.get(item.id) === item) continue;
      ctx.put(options.collection, options.toDocument(after, item));
    }
  },
});

/**
 * The document with its id and revision first (where readers have always found them) and
 * always the helper's. One spread then plain assignments: spreading twice into one literal
 * turns the object into a slow dictionary, which cost the share listing half its speed.
 */
const stamped = <D extends StreamDocument>(
  body: StreamDocumentBody<D>,
  id: string,
  revision: number,
): D => {
  const document = { id, revision, ...body };
  document.id = id;
  document.revision = revision;
  return document as D;
};

export interface SingleStreamProjectionOptions<D extends StreamDocument, E extends RecordedEvent> {
  /** Also the name of its checkpoint. */
  readonly name: string;
  /** Holds one document per stream: what `evolve` folds. */
  readonly collection: string;
  readonly filter: EventFilter;
  readonly version?: number;
  readonly indexes?: Readonly<Record<string, readonly (readonly string[])[]>>;
  readonly sparseIndexes?: Readonly<Record<string, readonly SparseIndex[]>>;
  readonly retiredIndexes?: Readonly<Record<string, readonly (readonly string[])[]>>;
  readonly counts?: Readonly<Record<string, readonly (readonly string[])[]>>;
  /** Turns a recorded event into the typed event `evolve` takes (or refuses it). */
  readonly decode: (event: RecordedEvent) => E;
  /** The id of the stream document an event belongs to. */
  readonly documentId: (event: E) => string;
  /** The stream document after the event; undefined deletes it (or writes nothing if absent). */
  readonly evolve: (document: D | undefined, event: E) => StreamDocumentBody<D> | undefined;
  readonly derived?: readonly DerivedCollection<D>[];
}

/**
 * A read model of one document per stream, declared by its `evolve`. The helper loads the
 * document, skips an event its revision has already seen (a re-delivered batch, a replay over
 * existing documents), puts or deletes the result stamped with the event's revision, and keeps
 * the derived collections in step; the runner commits all of it with the checkpoint.
 */
export const singleStreamProjection = <D extends StreamDocument, E extends RecordedEvent>(
  options: SingleStreamProjectionOptions<D, E>,
): Projection => {
  const derived = options.derived ?? [];
  return {
    name: options.name,
    collections: [options.collection, ...derived.map((d) => d.collection)],
    filter: options.filter,
    ...(options.version ? { version: options.version } : {}),
    ...(options.indexes ? { indexes: options.indexes } : {}),
    ...(options.sparseIndexes ? { sparseIndexes: options.sparseIndexes } : {}),
    ...(options.retiredIndexes ? { retiredIndexes: options.retiredIndexes } : {}),
    ...(options.counts ? { counts: options.counts } : {}),
    async handle(recorded: RecordedEvent, ctx: ProjectionContext): Promise<void> {
      const event = options.decode(recorded);
      const id = options.documentId(event);
      const before = await ctx.get<D>(options.collection, id);
      if (before && before.revision >= event.revision) return;
      const body = options.evolve(before, event);
      if (body === undefined && before === undefined) return;
      const after = body && stamped<D>(body, id, event.revision);
      if (after) ctx.put(options.collection, after);
      else ctx.delete(options.collection, id);
      for (const collection of derived) collection.write(before, after, ctx);
    },
  };
};
