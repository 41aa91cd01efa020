import type { DriverErrorCode } from '../contract/driver-error.js';
import type {
  DriverOperationName,
  ReplicationType,
  ShareProtocol,
} from '../contract/share-driver.js';

export type DriverKind = 'simulated' | 'local';

export interface PoolConfig {
  /** The part after `#` in `host@backend#pool`. */
  readonly name: string;
  /** Reported (and, when not thin, enforced) capacity; defaults per driver. */
  readonly totalCapacityGb?: number;
}

/** Knobs every driver turns into pool capabilities (reference 8, 10.1). */
export interface BackendCapabilityOptions {
  /** Defaults to the back-end name after `@`. */
  readonly shareBackendName?: string;
  readonly reservedPercentage?: number;
  readonly reservedSnapshotPercentage?: number;
  readonly reservedShareExtendPercentage?: number;
  /** Manila's default is 20.0; below 1 is refused. */
  readonly maxOverSubscriptionRatio?: number;
  readonly thinProvisioning?: boolean;
  /** Reported only when a replication domain is set; defaults to `readable`. */
  readonly replicationType?: ReplicationType;
  readonly filterFunction?: string;
  readonly goodnessFunction?: string;
  readonly dedupe?: boolean;
  readonly compression?: boolean;
  /** Protocols accepted on create; defaults to NFS and CIFS. */
  readonly protocols?: readonly ShareProtocol[];
  /** Address used in `address:/path` export locations; defaults to the host part. */
  readonly exportAddress?: string;
}

export interface FailureRule {
  /** `*` matches every operation. */
  readonly operation: DriverOperationName | '*';
  /** Fail each matching call with this probability (drawn from the seeded generator). */
  readonly probability?: number;
  /** Fail the Nth matching call (1-based) or each of the listed calls. */
  readonly nthCall?: number | readonly number[];
  readonly code?: DriverErrorCode;
  readonly userMessage?: string;
}

export interface SimulatedBackendOptions extends BackendCapabilityOptions {
  /** Seed of the generator behind probabilistic failures. */
  readonly seed?: number;
  /** Delay of every operation, in milliseconds (0: answers without yielding to a timer). */
  readonly latencyMs?: number;
  readonly operationLatencyMs?: Readonly<Partial<Record<DriverOperationName, number>>>;
  readonly failures?: readonly FailureRule[];
  /** Append-only JSON-lines journal of every call; state is reloaded from it on initialize. */
  readonly journalFile?: string;
  /**
   * When creation from snapshot answers `creating_from_snapshot`: `cross-pool` (default) when
   * the snapshot's pool differs from the new share's, `always`, or `never`.
   */
  readonly asyncCreateFromSnapshot?: 'cross-pool' | 'always' | 'never';
  /** getShareStatus polls until an asynchronous creation completes (default 4: 25, 50, 75, 100). */
  readonly createFromSnapshotPolls?: number;
}

export interface LocalBackendOptions extends BackendCapabilityOptions {
  /** Root shared by every local back end that may copy or replicate to another. */
  readonly root: string;
  /** Bytes per read/write step of background copies (default 4 MiB). */
  readonly copyChunkBytes?: number;
  /** Caps the background copy rate; unset means as fast as the disks go. */
  readonly copyBytesPerSecond?: number;
  /** Serves NFS shares through NFS-Ganesha; unset: shares are directories only. */
  readonly nfsServer?: NfsServerOptions;
  /** Serves CIFS shares through Samba's smbd; unset: CIFS shares are directories only. */
  readonly cifsServer?: CifsServerOptions;
}

/**
 * One Ganesha per back end. `managed` (default): the share node starts ganesha.nfsd itself,
 * with its configuration and log under the back end's directory, and restarts it when it dies.
 * `external`: the operator runs Ganesha with `%include` of the exports file Hawser writes, and
 * Hawser sends SIGHUP to the pid in `pidFile` after each change.
 */
export interface NfsServerOptions {
  readonly mode?: 'managed' | 'external';
  /** Address clients mount, in export locations; defaults to `exportAddress`. */
  readonly address?: string;
  /** TCP port Ganesha listens on (managed); default 2049. */
  readonly port?: number;
  /** Address Ganesha binds to (managed); default all interfaces. */
  readonly bindAddress?: string;
  /** Pid file of the operator's Ganesha (external; required there). */
  readonly pidFile?: string;
  /** First Export_Id given out; back ends sharing one external Ganesha need disjoint ranges. */
  readonly firstExportId?: number;
  /** The Ganesha executable (managed); default `ganesha.nfsd` on PATH. */
  readonly executable?: string;
}

/**
 * One smbd per back end. `managed` (default): the share node starts smbd itself, with its
 * smb.conf, passdb, state and log under the back end's directory, and restarts it when it dies.
 * `external`: the operator's smb.conf includes the shares file Hawser writes, and Hawser sends
 * `reload-config` to the smbd whose configuration is `configFile`.
 */
export interface CifsServerOptions {
  readonly mode?: 'managed' | 'external';
  /** Address clients connect to, in export locations; defaults to `exportAddress`. */
  readonly address?: string;
  /** TCP port smbd listens on (managed); default 445. */
  readonly port?: number;
  /** Address smbd binds to (managed); default all interfaces. */
  readonly bindAddress?: string;
  /** The operator's smb.conf (external; required there): smbcontrol finds its smbd through it. */
  readonly configFile?: string;
  /** The smbd executable (managed); default `smbd` on PATH. */
  readonly executable?: string;
}

interface BackendConfigBase {
  /** `host@backend`. */
  readonly name: string;
  readonly availabilityZone: string;
  /** Back ends with the same domain may replicate and copy snapshots to each other. */
  readonly replicationDomain?: string;
  readonly pools: readonly PoolConfig[];
}

export interface SimulatedBackendConfig extends BackendConfigBase {
  readonly driver: 'simulated';
  readonly options?: SimulatedBackendOptions;
}

export interface LocalBackendConfig extends BackendConfigBase {
  readonly driver: 'local';
  readonly options: LocalBackendOptions;
}

export type BackendConfig = SimulatedBackendConfig | LocalBackendConfig;
