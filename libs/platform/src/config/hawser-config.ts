import path from 'node:path';
import type { QuotaLimits } from '#hawser/domain';
import { quotaDefaultsFrom } from './quota-defaults.js';

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
  /** HAWSER_BACKENDS: a JSON file of back ends; default: the sample configuration. */
  readonly backendsFile: string | undefined;
  /** HAWSER_READ_YOUR_WRITES_MS: how long a read after a write waits for the projections. */
  readonly readYourWritesMs: number;
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

const integer = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new Error(`${name} must be a non-negative integer, not ${JSON.stringify(value)}`);
  }
  return parsed;
};

const positiveInteger = (name: string, value: string | undefined, fallback: number): number => {
  const parsed = integer(name, value, fallback);
  if (parsed < 1) throw new Error(`${name} must be at least 1, not ${JSON.stringify(value)}`);
  return parsed;
};

const flag = (name: string, value: string | undefined): boolean => {
  const normalised = (value ?? '').trim().toLowerCase();
  if (['', 'false', '0', 'no', 'off'].includes(normalised)) return false;
  if (['true', '1', 'yes', 'on'].includes(normalised)) return true;
  throw new Error(`${name} must be true or false, not ${JSON.stringify(value)}`);
};

const authMode = (value: string | undefined): AuthMode => {
  const mode = value ?? 'noauth';
  if (mode !== 'noauth' && mode !== 'keystone') {
    throw new Error(`HAWSER_AUTH must be noauth or keystone, not ${JSON.stringify(mode)}`);
  }
  return mode;
};

const keystoneUrl = (value: string): string => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`HAWSER_KEYSTONE_URL must be an http(s) URL, not ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`HAWSER_KEYSTONE_URL must be an http(s) URL, not ${JSON.stringify(value)}`);
  }
  const base = url.href.replace(/\/+$/, '');
  return base.endsWith('/v3') ? base : `${base}/v3`;
};

const keystoneConfig = (env: NodeJS.ProcessEnv): KeystoneConfig => {
  const required = ['HAWSER_KEYSTONE_URL', 'HAWSER_KEYSTONE_USERNAME', 'HAWSER_KEYSTONE_PASSWORD'];
  const missing = required.filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new Error(
      `HAWSER_AUTH=keystone needs ${required.join(', ')} (missing: ${missing.join(', ')})`,
    );
  }
  return {
    url: keystoneUrl(env.HAWSER_KEYSTONE_URL as string),
    username: env.HAWSER_KEYSTONE_USERNAME as string,
    password: env.HAWSER_KEYSTONE_PASSWORD as string,
    project: env.HAWSER_KEYSTONE_PROJECT || 'service',
    userDomain: env.HAWSER_KEYSTONE_USER_DOMAIN || 'Default',
    projectDomain: env.HAWSER_KEYSTONE_PROJECT_DOMAIN || 'Default',
    cacheS: integer('HAWSER_KEYSTONE_CACHE_S', env.HAWSER_KEYSTONE_CACHE_S, 300),
  };
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): HawserConfig => ({
  port: integer('PORT', env.PORT, 8786),
  bind: env.HAWSER_BIND || '127.0.0.1',
  dataDir: path.resolve(env.HAWSER_DATA_DIR || './data'),
  auth: authMode(env.HAWSER_AUTH),
  keystone: authMode(env.HAWSER_AUTH) === 'keystone' ? keystoneConfig(env) : undefined,
  eventstoreUrl: env.EVENTSTORE_URL || undefined,
  aggregateSnapshots:
    (env.HAWSER_AGGREGATE_SNAPSHOTS ?? '') === '' ||
    flag('HAWSER_AGGREGATE_SNAPSHOTS', env.HAWSER_AGGREGATE_SNAPSHOTS),
  mongoUrl: env.MONGO_URL || undefined,
  backendsFile: env.HAWSER_BACKENDS || undefined,
  readYourWritesMs: integer('HAWSER_READ_YOUR_WRITES_MS', env.HAWSER_READ_YOUR_WRITES_MS, 5000),
  bodyLimit: env.HAWSER_BODY_LIMIT || '256kb',
  defaultShareType: env.HAWSER_DEFAULT_SHARE_TYPE || undefined,
  enabledShareProtocols: (env.HAWSER_ENABLED_SHARE_PROTOCOLS || 'NFS,CIFS')
    .split(',')
    .map((p) => p.trim().toUpperCase())
    .filter(Boolean),
  serviceDownTimeS: integer('HAWSER_SERVICE_DOWN_TIME_S', env.HAWSER_SERVICE_DOWN_TIME_S, 60),
  reportIntervalS: integer('HAWSER_REPORT_INTERVAL_S', env.HAWSER_REPORT_INTERVAL_S, 10),
  useSchedulerCreatingShareFromSnapshot: flag(
    'HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT',
    env.HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT,
  ),
  shareStatusPollMs: integer(
    'HAWSER_SHARE_STATUS_POLL_MS',
    env.HAWSER_SHARE_STATUS_POLL_MS,
    60_000,
  ),
  replicaStateUpdateIntervalS: integer(
    'HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S',
    env.HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S,
    300,
  ),
  quotaDefaults: quotaDefaultsFrom(env),
  reservationExpireS: positiveInteger(
    'HAWSER_RESERVATION_EXPIRE_S',
    env.HAWSER_RESERVATION_EXPIRE_S,
    300,
  ),
  softDeleteRetentionS: positiveInteger(
    'HAWSER_SOFT_DELETE_RETENTION_S',
    env.HAWSER_SOFT_DELETE_RETENTION_S,
    604_800,
  ),
  policyFile: env.HAWSER_POLICY_FILE ? path.resolve(env.HAWSER_POLICY_FILE) : undefined,
  policyEnforceNewDefaults:
    (env.HAWSER_POLICY_ENFORCE_NEW_DEFAULTS ?? '') === '' ||
    flag('HAWSER_POLICY_ENFORCE_NEW_DEFAULTS', env.HAWSER_POLICY_ENFORCE_NEW_DEFAULTS),
});

export const HAWSER_CONFIG = Symbol('HAWSER_CONFIG');
