export * from './document-store.port.js';
export {
  SqliteDocumentStore,
  type SqliteDocumentStoreOptions,
} from './sqlite/sqlite-document-store.js';
export type { MongoDbDocumentStoreOptions } from './mongodb/mongodb-document-store.js';
export { createDocumentStore, type DocumentStoreConfig } from './create-document-store.js';
export type { Projection, ProjectionContext, SparseIndex } from './projection/projection.js';
export {
  derivedCollection,
  singleStreamProjection,
  type DerivedCollection,
  type DerivedCollectionOptions,
  type SingleStreamProjectionOptions,
  type StreamDocument,
  type StreamDocumentBody,
} from './projection/single-stream-projection.js';
export {
  ProjectionRunner,
  type ProjectionRunnerOptions,
  type ProjectionStatus,
} from './projection/projection-runner.js';
export { ReadModelChanges, type ChangeListener } from './changes/read-model-changes.js';
// Log-following parts shared with the process-manager runtime.
export { AppendSignal } from './subscription/append-signal.js';
export { PositionWaiters } from './subscription/position-waiters.js';
export { LogFollowers, type LogFollower } from './subscription/log-followers.js';
export { readLogPage, type LogPage, type LogPageOptions } from './subscription/log-page.js';
export { FollowerSleep } from './subscription/follower-sleep.js';
export {
  SharedLogReader,
  type Nap,
  type SharedLogReaderOptions,
  type SleepingFollower,
} from './subscription/shared-log-reader.js';
export * from './tokens.js';
