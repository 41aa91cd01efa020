import type { EventMetadata, RecordedEvent } from './event-store.port.js';
import type { UpcasterRegistry } from './upcaster-registry.js';

export type StoredMetadata = RecordedEvent['metadata'];

/**
 * The metadata an event is written with: the caller's, plus the schema version of its data
 * shape and the time it was recorded, both kept when the caller set them already.
 */
export function completeMetadata(
  type: string,
  metadata: EventMetadata | undefined,
  upcasters: UpcasterRegistry | undefined,
  recordedAt: string,
): StoredMetadata {
  return {
    ...metadata,
    schemaVersion: metadata?.schemaVersion ?? upcasters?.currentVersion(type) ?? 1,
    recordedAt: metadata?.recordedAt ?? recordedAt,
  };
}

/**
 * Brings stored data up to the current shape. The returned metadata carries the version the
 * data now has, so readers never see a version that does not match the data beside it.
 */
export function upcastStored(
  type: string,
  data: unknown,
  metadata: StoredMetadata,
  upcasters: UpcasterRegistry | undefined,
): { data: unknown; metadata: StoredMetadata } {
  if (upcasters === undefined) return { data, metadata };
  const upcast = upcasters.upcast(type, metadata.schemaVersion, data);
  if (upcast.version === metadata.schemaVersion) return { data, metadata };
  return { data: upcast.data, metadata: { ...metadata, schemaVersion: upcast.version } };
}

/** Whether an event id batch holds the same id twice (never valid in one append). */
export function firstRepeatedId(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}
