export * from './event-store.port.js';
export * from './upcaster-registry.js';
export * from './event-decoder.js';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite/sqlite-event-store.js';
export { createEventStore, type EventStoreConfig } from './create-event-store.js';
export * from './snapshots/snapshot-store.port.js';
export { SqliteSnapshotStore } from './snapshots/sqlite-snapshot-store.js';
export { createSnapshotStore } from './snapshots/create-snapshot-store.js';
export * from './storage/storage-failure.js';
