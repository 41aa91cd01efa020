/** Nest injection tokens for the ports; adapters are chosen by configuration at start-up. */
export const EVENT_STORE = Symbol('EVENT_STORE');
/** The aggregate snapshot cache, or null when HAWSER_AGGREGATE_SNAPSHOTS is false. */
export const SNAPSHOT_STORE = Symbol('SNAPSHOT_STORE');

// The read models' tokens live beside their port, where the use cases inject them too.
export { DOCUMENT_STORE, READ_YOUR_WRITES, type ReadYourWrites } from '#hawser/read-models';

/** How far the read models reflect the log, for code that reads them but does not write them. */
export interface ReadModelPositions {
  /** True once every read model has passed `position`; false after `timeoutMs`. */
  waitForPosition(position: number, timeoutMs: number): Promise<boolean>;
}
export const READ_MODEL_POSITIONS = Symbol('READ_MODEL_POSITIONS');
