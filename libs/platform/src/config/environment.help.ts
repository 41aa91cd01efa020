import { KNOWN_VARIABLES } from './environment.schema.js';

/** One line per variable for `--help`; the README's configuration table says more. */
const HELP: Readonly<Record<string, string>> = {
  PORT: 'HTTP port (8786)',
  HAWSER_BIND: 'address to listen on (127.0.0.1)',
  HAWSER_DATA_DIR: 'SQLite files and the local pools (./data)',
  HAWSER_AUTH: 'noauth (token user:project[:roles]) or keystone (noauth)',
  HAWSER_KEYSTONE_URL: 'Keystone identity endpoint (required with keystone)',
  HAWSER_KEYSTONE_USERNAME: 'Keystone service user (required with keystone)',
  HAWSER_KEYSTONE_PASSWORD: "the service user's password (required with keystone)",
  HAWSER_KEYSTONE_PROJECT: "the service user's project (service)",
  HAWSER_KEYSTONE_USER_DOMAIN: "the service user's domain (Default)",
  HAWSER_KEYSTONE_PROJECT_DOMAIN: "the service project's domain (Default)",
  HAWSER_KEYSTONE_CACHE_S: 'seconds a validated token is trusted (300)',
  EVENTSTORE_URL: 'KurrentDB connection string instead of SQLite events',
  MONGO_URL: 'MongoDB URL instead of SQLite read models',
  HAWSER_STORE_WAIT_S: 'seconds start waits for MONGO_URL and EVENTSTORE_URL (30)',
  NATS_URL: 'NATS servers between processes (required by scheduler and share nodes)',
  HAWSER_NODE_NAME: 'share-node name, stable across restarts (required by share nodes)',
  HAWSER_BACKENDS: 'JSON file of back ends (the sample back ends)',
  HAWSER_READ_YOUR_WRITES_MS: 'how long a read after a write waits for projections (5000)',
  HAWSER_API_PROCESSES: 'API processes serving one port, node cluster (1; more needs NATS_URL)',
  HAWSER_PROJECTOR_LEASE_MS: "how long the projector's lease outlives its last heartbeat (3000)",
  HAWSER_HEAP_GROWTH_PERCENT:
    "heap growth past the live heap before a full collection, % (50; 0: V8's own)",
  HAWSER_API_PROJECTOR_PROCESS:
    'with several API processes, project in one more process that serves no HTTP (false)',
  HAWSER_BODY_LIMIT: 'largest request body (256kb)',
  HAWSER_DEFAULT_SHARE_TYPE: "Manila's default_share_type (none)",
  HAWSER_ENABLED_SHARE_PROTOCOLS: "Manila's enabled_share_protocols (NFS,CIFS)",
  HAWSER_SERVICE_DOWN_TIME_S: 'a back end silent this long is down (60)',
  HAWSER_REPORT_INTERVAL_S: 'how often share nodes report pools (10)',
  HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT: 'schedule shares from snapshots (false)',
  HAWSER_SHARE_STATUS_POLL_MS: 'poll interval of creating_from_snapshot shares (60000)',
  HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: "Manila's replica_state_update_interval (300)",
  HAWSER_STORAGE_RETRY_INTERVAL_MS: 'retry interval of events parked by a storage failure (5000)',
  HAWSER_RESERVATION_EXPIRE_S: 'unclaimed quota reservations are released after (300)',
  HAWSER_AGGREGATE_SNAPSHOTS: 'load long streams from snapshots (true)',
  HAWSER_POLICY_FILE: 'policy.yaml overriding the default rules (none)',
  HAWSER_POLICY_ENFORCE_NEW_DEFAULTS: 'secure-RBAC defaults; false adds legacy ones (true)',
  HAWSER_LOG_LEVEL: 'fatal, error, warn, info, debug, trace or silent',
  HAWSER_SOFT_DELETE_RETENTION_S: 'seconds soft-deleted shares are kept (604800)',
  HAWSER_READINESS_MAX_LAG_S: 'readiness fails while a projection lags more (30)',
  HAWSER_METRICS_PORT: 'token-free /metrics and /health port of any process (none)',
  HAWSER_METRICS_BIND: 'address of the HAWSER_METRICS_PORT listener (127.0.0.1)',
};

/** The `--help` section listing the environment the process reads. */
export const environmentHelp = (): string => {
  const named = KNOWN_VARIABLES.filter((name) => HELP[name] !== undefined);
  const width = Math.max(...named.map((name) => name.length));
  return [
    '',
    'Configuration, from the environment (an unknown HAWSER_* variable is refused):',
    ...named.map((name) => `  ${name.padEnd(width)}  ${HELP[name]}`),
    `  ${'HAWSER_QUOTA_<RESOURCE>'.padEnd(width)}  default quota, e.g. HAWSER_QUOTA_SHARES (Manila's)`,
  ].join('\n');
};
