import type {
  DriverOperationName,
  DriverShareStatus,
  ReplicaState,
  ShareProtocol,
} from '../contract/share-driver.js';
import type { AppliedAccessRule } from '../common/access-rules.js';
import type { CloneMethod } from './tree-operations.js';

/** Stored next to each share's data, rewritten atomically on every change. */
export interface LocalShareMeta {
  readonly shareId: string;
  readonly instanceId: string;
  readonly host: string;
  readonly protocol: ShareProtocol;
  readonly sizeGiB: number;
  readonly status: DriverShareStatus;
  readonly replicaState: ReplicaState | null;
  readonly readOnly: boolean;
  readonly rules: readonly AppliedAccessRule[];
  readonly commandId: string;
  readonly errorMessage?: string;
  /** While created from a snapshot in the background: where from and how much. */
  readonly copySource?: { readonly dir: string; readonly totalBytes: number };
  /** An adopted (managed) share: the directory it was adopted from, where unmanage puts it back. */
  readonly managedFrom?: string;
}

export interface LocalSnapshotMeta {
  readonly snapshotId: string;
  readonly snapshotInstanceId: string;
  readonly shareInstanceId: string;
  readonly host: string;
  readonly sizeGiB: number;
  readonly method: CloneMethod;
  readonly commandId: string;
  /** An adopted (managed) snapshot: the directory it was adopted from, where unmanage puts it back. */
  readonly managedFrom?: string;
  /** A mountable snapshot's read-only access rules (2.32); absent when it has none. */
  readonly rules?: readonly AppliedAccessRule[];
}

/**
 * Written before work that cannot finish atomically, removed after it finished; whatever is
 * found at start-up is finished or cleaned up by ensureShares.
 */
export interface LocalMarker {
  readonly operation: DriverOperationName;
  readonly commandId: string;
  readonly resourceId: string;
  /** The request that started the work, enough to finish or undo it. */
  readonly request: unknown;
  readonly startedAt: string;
}
