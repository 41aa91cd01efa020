import path from 'node:path';
import type { QuotaLimits } from '#hawser/domain';
import { ConfigurationError, describeIssues } from './configuration-error.js';
import {
  environmentSchema,
  KNOWN_VARIABLES,
  quotaDefaultsOf,
  relevantVariables,
  type Environment,
} from './environment.schema.js';

export type AuthMode = 'noauth' | 'keystone';

/** How Hawser reaches Keystone and as whom it validates tokens (HAWSER_AUTH=keystone). */
export interface KeystoneConfig {
  /** HAWSER_KEYSTONE_URL: the identity v3 endpoint; `/v3` is appended when missing. */
  readonly url: string;
  /** HAWSER_KEYSTONE_USERNAME and HAWSER_KEYSTONE_PASSWORD: the service user. */
  readonly username: string;
  readonly password: string;
  /** HAWSER_KEYSTONE_PROJECT: the service user's project (default `service`). */
  readonly project: string;
  /** HAWSER_KEYSTONE_USER_DOMAIN and HAWSER_KEYSTONE_PROJECT_DOMAIN: names (default `Default`). */
  readonly userDomain: string;
  readonly projectDomain: string;
  /** HAWSER_KEYSTONE_CACHE_S: how long a validated token is trusted without asking (300). */
  readonly cacheS: number;
}

/** Everything Hawser reads from its environment, with the documented defaults (README). */
export interface HawserConfig {
  /** PORT: the HTTP port (Manila's 8786). */
  readonly port: number;
  /** HAWSER_BIND: the address to listen on. */
  readonly bind: string;
  /** HAWSER_DATA_DIR: SQLite files and the local driver's pools. */
  readonly dataDir: string;
  /** HAWSER_AUTH: `noauth` (token `user:project[:roles]`) or `keystone`. */
  readonly auth: AuthMode;
  /** The HAWSER_KEYSTONE_* settings: present exactly when auth is `keystone`. */
  readonly keystone: KeystoneConfig | undefined;
  /** EVENTSTORE_URL: use KurrentDB/EventStoreDB instead of SQLite. */
  readonly eventstoreUrl: string | undefined;
  /** MONGO_URL: use MongoDB for read models instead of SQLite. */
  readonly mongoUrl: string | undefined;
  /**
   * NATS_URL: the NATS servers between Hawser's processes (comma-separated for a cluster).
   * Unset: in-process, the embedded default; the separate scheduler and share nodes need it.
   */
  readonly natsServers: readonly string[] | undefined;
  /** HAWSER_STORE_WAIT_S (default 30): how long start waits for MONGO_URL and EVENTSTORE_URL. */
  readonly storeWaitS: number;
  /** HAWSER_NODE_NAME: a share-node process's name, its workflow checkpoint's (required there). */
  readonly nodeName: string | undefined;
  /** HAWSER_BACKENDS: a JSON file of back ends; default: the sample configuration. */
  readonly backendsFile: string | undefined;
  /** HAWSER_READ_YOUR_WRITES_MS: how long a read after a write waits for the projections. */
  readonly readYourWritesMs: number;
  /** HAWSER_API_PROCESSES (default 1): API processes sharing one port (node's cluster module). */
  readonly apiProcesses: number;
  /**
   * HAWSER_PROJECTOR_LEASE_MS (default 3000): how long the projector's lease outlives its holder's
   * last heartbeat, so a standby takes over that long after a holder on another host dies.
   */
  readonly projectorLeaseMs: number;
  /**
   * HAWSER_HEAP_GROWTH_PERCENT (default 50): how far, in percent, V8's old generation may grow
   * past what its last full collection left before the next one (0: V8's own, up to 300).
   */
  readonly heapGrowthPercent: number;
  /**
   * HAWSER_API_PROJECTOR_PROCESS (default false): with HAWSER_API_PROCESSES above 1, the cluster
   * runs the projector in one more process of its own, which serves no HTTP, and the serving
   * processes never project.
   */
  readonly apiProjectorProcess: boolean;
  /** HAWSER_BODY_LIMIT: largest accepted request body. */
  readonly bodyLimit: string;
  /** HAWSER_DEFAULT_SHARE_TYPE: Manila's default_share_type (name or id), if any. */
  readonly defaultShareType: string | undefined;
  /** HAWSER_ENABLED_SHARE_PROTOCOLS: Manila's enabled_share_protocols. */
  readonly enabledShareProtocols: readonly string[];
  /** HAWSER_SERVICE_DOWN_TIME_S: a back end that has not reported for this long is down. */
  readonly serviceDownTimeS: number;
  /** HAWSER_REPORT_INTERVAL_S: how often share nodes report pool capabilities. */
  readonly reportIntervalS: number;
  /**
   * HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT: Manila's option of that name (default
   * false). Off, a share from a snapshot goes to the source's pool; on, the scheduler places it.
   */
  readonly useSchedulerCreatingShareFromSnapshot: boolean;
  /** HAWSER_SHARE_STATUS_POLL_MS: how often nodes poll shares in creating_from_snapshot. */
  readonly shareStatusPollMs: number;
  /** HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: Manila's replica_state_update_interval. */
  readonly replicaStateUpdateIntervalS: number;
  /**
   * HAWSER_STORAGE_RETRY_INTERVAL_MS: how often process managers retry, by themselves, the
   * events they parked because the store could not write (busy, full, read-only).
   */
  readonly storageRetryIntervalMs: number;
  /** HAWSER_QUOTA_<RESOURCE> (e.g. HAWSER_QUOTA_SHARES): default quota limits, Manila's by default. */
  readonly quotaDefaults: QuotaLimits;
  /**
   * HAWSER_RESERVATION_EXPIRE_S (default 300, at least 1): a quota reservation no request has
   * claimed after this long is released (Manila's reservation_expire).
   */
  readonly reservationExpireS: number;
  /**
   * HAWSER_SOFT_DELETE_RETENTION_S (default 604800, a week; at least 1): how long a share stays
   * in the recycle bin before it is deleted (Manila's soft_deleted_share_retention_time).
   */
  readonly softDeleteRetentionS: number;
  /**
   * HAWSER_AGGREGATE_SNAPSHOTS (default true): long streams (a project's quota) load from a
   * snapshot in `snapshots.sqlite` under the data directory; false replays them whole.
   */
  readonly aggregateSnapshots: boolean;
  /**
   * HAWSER_POLICY_FILE: a policy.yaml (Manila's format) whose rules override the defaults; read
   * at start and on SIGHUP. Unset: the defaults alone.
   */
  readonly policyFile: string | undefined;
  /**
   * HAWSER_POLICY_ENFORCE_NEW_DEFAULTS (default true): the secure-RBAC defaults (a reader only
   * reads). False adds back Manila Zed's deprecated defaults (legacy mode).
   */
  readonly policyEnforceNewDefaults: boolean;
}

const keystoneUrl = (value: string): string => {
  const base = new URL(value).href.replace(/\/+$/, '');
  return base.endsWith('/v3') ? base : `${base}/v3`;
};

const keystoneConfig = (env: Environment): KeystoneConfig | undefined =>
  env.HAWSER_AUTH === 'keystone'
    ? {
        url: keystoneUrl(env.HAWSER_KEYSTONE_URL as string),
        username: env.HAWSER_KEYSTONE_USERNAME as string,
        password: env.HAWSER_KEYSTONE_PASSWORD as string,
        project: env.HAWSER_KEYSTONE_PROJECT,
        userDomain: env.HAWSER_KEYSTONE_USER_DOMAIN,
        projectDomain: env.HAWSER_KEYSTONE_PROJECT_DOMAIN,
        cacheS: env.HAWSER_KEYSTONE_CACHE_S,
      }
    : undefined;

/** The environment, checked against its schema: refused with a ConfigurationError, one line. */
export const parseEnvironment = (env: NodeJS.ProcessEnv = process.env): Environment => {
  const input = relevantVariables(env);
  const parsed = environmentSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = describeIssues(parsed.error, input, {
    name: (path) => `environment variable ${String(path[0])}`,
    knownKeys: () => KNOWN_VARIABLES,
  });
  throw new ConfigurationError(problems.join('; '));
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): HawserConfig => {
  const vars = parseEnvironment(env);
  return {
    port: vars.PORT,
    bind: vars.HAWSER_BIND,
    dataDir: path.resolve(vars.HAWSER_DATA_DIR),
    auth: vars.HAWSER_AUTH,
    keystone: keystoneConfig(vars),
    eventstoreUrl: vars.EVENTSTORE_URL,
    aggregateSnapshots: vars.HAWSER_AGGREGATE_SNAPSHOTS,
    mongoUrl: vars.MONGO_URL,
    natsServers: vars.NATS_URL,
    storeWaitS: vars.HAWSER_STORE_WAIT_S,
    nodeName: vars.HAWSER_NODE_NAME,
    backendsFile: vars.HAWSER_BACKENDS,
    readYourWritesMs: vars.HAWSER_READ_YOUR_WRITES_MS,
    apiProcesses: vars.HAWSER_API_PROCESSES,
    projectorLeaseMs: vars.HAWSER_PROJECTOR_LEASE_MS,
    heapGrowthPercent: vars.HAWSER_HEAP_GROWTH_PERCENT,
    apiProjectorProcess: vars.HAWSER_API_PROJECTOR_PROCESS,
    bodyLimit: vars.HAWSER_BODY_LIMIT,
    defaultShareType: vars.HAWSER_DEFAULT_SHARE_TYPE,
    enabledShareProtocols: vars.HAWSER_ENABLED_SHARE_PROTOCOLS,
    serviceDownTimeS: vars.HAWSER_SERVICE_DOWN_TIME_S,
    reportIntervalS: vars.HAWSER_REPORT_INTERVAL_S,
    useSchedulerCreatingShareFromSnapshot: vars.HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT,
    shareStatusPollMs: vars.HAWSER_SHARE_STATUS_POLL_MS,
    replicaStateUpdateIntervalS: vars.HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S,
    storageRetryIntervalMs: vars.HAWSER_STORAGE_RETRY_INTERVAL_MS,
    quotaDefaults: quotaDefaultsOf(vars) as QuotaLimits,
    reservationExpireS: vars.HAWSER_RESERVATION_EXPIRE_S,
    softDeleteRetentionS: vars.HAWSER_SOFT_DELETE_RETENTION_S,
    policyFile: vars.HAWSER_POLICY_FILE ? path.resolve(vars.HAWSER_POLICY_FILE) : undefined,
    policyEnforceNewDefaults: vars.HAWSER_POLICY_ENFORCE_NEW_DEFAULTS,
  };
};

export const HAWSER_CONFIG = Symbol('HAWSER_CONFIG');
