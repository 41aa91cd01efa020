/**
 * A stream's state folded up to one of its events. A snapshot is a cache of the stream, never
 * its source of truth: a reader uses it only when the stream still holds `eventId` at
 * `revision` and the state's shape is the version it expects, and replays the stream otherwise.
 */
export interface StreamSnapshot {
  readonly streamId: string;
  /** Revision of the last event folded into `state`. */
  readonly revision: number;
  /** Id of that event, so a snapshot of another stream's history is recognised and ignored. */
  readonly eventId: string;
  /** Version of the state's shape; a snapshot of another version is ignored. */
  readonly stateVersion: number;
  /** The state, as plain JSON data. */
  readonly state: unknown;
}

/** The newest snapshot per stream. */
export interface SnapshotStore {
  read(streamId: string): Promise<StreamSnapshot | undefined>;
  /** Replaces the stream's snapshot unless the stored one is of the same version and newer. */
  write(snapshot: StreamSnapshot): Promise<void>;
  delete(streamId: string): Promise<void>;
  close(): Promise<void>;
}
