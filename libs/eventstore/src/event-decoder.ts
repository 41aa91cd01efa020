import type { RecordedEvent } from './event-store.port.js';
import type { UpcasterRegistry } from './upcaster-registry.js';

/** The shape of a domain event: a type name and the data of that type. */
export interface TypedEvent {
  readonly type: string;
  readonly data: unknown;
}

/**
 * A recorded event narrowed to one member of a union: `switch (event.type)` narrows `data` too.
 * Distributes over the union so each member keeps its own data type.
 */
export type Decoded<E extends TypedEvent> = E extends TypedEvent
  ? RecordedEvent<E['type'], E['data']>
  : never;

/** What the decoder needs of a catalogue entry: where the type lives and its current version. */
export interface DecoderCatalogueEntry {
  readonly category: string;
  readonly version: number;
}

export type DecodeRefusal = 'unknown type' | 'newer version' | 'no upcaster';

/**
 * An event the decoder refuses: a type its category does not know, a version newer than the
 * catalogue's (written by a newer Hawser), or an old version without an upcaster chain to the
 * current one. Consumers treat it as a failing event (retried, then parked), never skip it.
 */
export class EventDecodeError extends Error {
  override readonly name = 'EventDecodeError';

  constructor(
    readonly refusal: DecodeRefusal,
    readonly category: string,
    readonly event: Pick<RecordedEvent, 'type' | 'streamId' | 'revision'> & {
      readonly version: number;
    },
  ) {
    super(
      `cannot decode ${event.type} v${event.version} at ${event.streamId}@${event.revision} ` +
        `as a ${category} event: ${refusal}`,
    );
  }
}

/** Turns a recorded event of its categories into a member of their typed union, or refuses it. */
export interface EventDecoder<E extends TypedEvent> {
  readonly categories: readonly string[];
  decode(event: RecordedEvent): Decoded<E>;
}

/**
 * The decoder of one stream category, driven by the catalogue: it upcasts the stored data to the
 * catalogue's version and checks the type belongs to the category. The union `E` is the
 * category's domain union; the catalogue being typed by the same union keeps the two in step.
 */
export function createEventDecoder<E extends TypedEvent>(
  category: string,
  catalogue: Readonly<Record<string, DecoderCatalogueEntry>>,
  upcasters: UpcasterRegistry,
): EventDecoder<E> {
  return {
    categories: [category],
    decode(event: RecordedEvent): Decoded<E> {
      const stored = event.metadata.schemaVersion;
      const refuse = (refusal: DecodeRefusal): EventDecodeError =>
        new EventDecodeError(refusal, category, { ...event, version: stored });
      const entry = Object.hasOwn(catalogue, event.type) ? catalogue[event.type] : undefined;
      if (entry?.category !== category) throw refuse('unknown type');
      if (stored > entry.version) throw refuse('newer version');
      const upcast = upcasters.upcast(event.type, stored, event.data);
      if (upcast.version !== entry.version) throw refuse('no upcaster');
      const decoded =
        upcast.version === stored
          ? event
          : {
              ...event,
              data: upcast.data,
              metadata: { ...event.metadata, schemaVersion: upcast.version },
            };
      // The one place data meets its type: the catalogue check above is what makes it so.
      return decoded as Decoded<E>;
    },
  };
}

/** One decoder for events of several categories (a consumer that follows several streams). */
export function eitherDecoder<A extends TypedEvent, B extends TypedEvent>(
  first: EventDecoder<A>,
  second: EventDecoder<B>,
): EventDecoder<A | B> {
  return {
    categories: [...first.categories, ...second.categories],
    decode(event: RecordedEvent): Decoded<A | B> {
      try {
        return first.decode(event);
      } catch (error) {
        if (!(error instanceof EventDecodeError) || error.refusal !== 'unknown type') throw error;
        return second.decode(event);
      }
    },
  };
}
