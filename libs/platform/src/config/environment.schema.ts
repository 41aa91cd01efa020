import { z } from 'zod';
import { MANILA_DEFAULT_QUOTAS, QUOTA_RESOURCES } from '#hawser/domain';

/**
 * Every environment variable Hawser's processes read, as one zod schema. Variables outside
 * HAWSER_* are named here too (PORT, MONGO_URL, EVENTSTORE_URL, NATS_URL); an unknown HAWSER_*
 * variable is refused, so a typo cannot silently fall back to a default. An empty value means
 * unset. A new setting is one line here plus its field in `HawserConfig`.
 */

const expected = (what: string) => ({ error: what });

const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) => {
  const what =
    max === Number.MAX_SAFE_INTEGER
      ? `a whole number >= ${min}`
      : `a whole number from ${min} to ${max}`;
  return z
    .string()
    .trim()
    .regex(/^-?\d+$/, expected(what))
    .transform(Number)
    .pipe(z.number().min(min, expected(what)).max(max, expected(what)));
};

/**
 * Settings that become a timer's delay are at most a day: node's timers take at most 2^31 - 1
 * ms and fire at once past it. Periods start at 1: a period of 0 would run its task every turn.
 */
const DAY_MS = 86_400_000;
const DAY_S = 86_400;
/**
 * Durations added to or taken from the present date (a share's deletion date, a reservation's
 * expiry) are at most 100 years: past year 275,760 a date cannot be written, and the request
 * that computed it would fail.
 */
const CENTURY_S = 3_153_600_000;

const flag = z.stringbool({
  truthy: ['true', '1', 'yes', 'on'],
  falsy: ['false', '0', 'no', 'off'],
  error: 'true or false',
});

const text = z.string().trim().min(1, expected('a non-empty value'));

const url = (protocols: readonly string[], what: string) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    }, expected(what));

const PROTOCOLS = ['NFS', 'CIFS', 'GLUSTERFS', 'HDFS', 'CEPHFS', 'MAPRFS'] as const;

const commaList = (item: RegExp, what: string) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(item, expected(what))).min(1, expected(what)));

const quotaVariables = Object.fromEntries(
  QUOTA_RESOURCES.map((resource) => [
    `HAWSER_QUOTA_${resource.toUpperCase()}`,
    wholeNumber(-1).optional(),
  ]),
);

export const environmentSchema = z
  .strictObject({
    PORT: wholeNumber(0, 65535).default(8786),
    HAWSER_BIND: text.default('127.0.0.1'),
    HAWSER_DATA_DIR: text.default('./data'),
    HAWSER_AUTH: z.enum(['noauth', 'keystone'], expected('noauth or keystone')).default('noauth'),
    HAWSER_KEYSTONE_URL: url(['http', 'https'], 'an http(s) URL').optional(),
    HAWSER_KEYSTONE_USERNAME: text.optional(),
    HAWSER_KEYSTONE_PASSWORD: text.optional(),
    HAWSER_KEYSTONE_PROJECT: text.default('service'),
    HAWSER_KEYSTONE_USER_DOMAIN: text.default('Default'),
    HAWSER_KEYSTONE_PROJECT_DOMAIN: text.default('Default'),
    HAWSER_KEYSTONE_CACHE_S: wholeNumber(0).default(300),
    EVENTSTORE_URL: url(
      ['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover', 'kurrent', 'kurrent+discover'],
      'a KurrentDB connection string (kurrentdb://host:2113?tls=false)',
    ).optional(),
    MONGO_URL: url(
      ['mongodb', 'mongodb+srv'],
      'a MongoDB URL (mongodb://host:27017/hawser)',
    ).optional(),
    NATS_URL: commaList(
      /^((nats|tls|ws|wss):\/\/)?[^\s/]+(:\d+)?$/,
      'NATS servers, comma-separated (nats://host:4222)',
    ).optional(),
    HAWSER_STORE_WAIT_S: wholeNumber(1, DAY_S).default(30),
    HAWSER_NODE_NAME: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, expected('a share node name (letters, digits, . _ -)'))
      .optional(),
    HAWSER_BACKENDS: text.optional(),
    HAWSER_READ_YOUR_WRITES_MS: wholeNumber(0, DAY_MS).default(5000),
    HAWSER_API_PROCESSES: wholeNumber(1, 64).default(1),
    HAWSER_PROJECTOR_LEASE_MS: wholeNumber(300, DAY_MS).default(3000),
    HAWSER_HEAP_GROWTH_PERCENT: wholeNumber(0, 400).default(50),
    HAWSER_API_PROJECTOR_PROCESS: flag.default(false),
    HAWSER_BODY_LIMIT: z
      .string()
      .trim()
      .regex(/^\d+\s*(b|kb|mb|gb)?$/i, expected('a size such as 256kb or 1mb'))
      .default('256kb'),
    HAWSER_DEFAULT_SHARE_TYPE: text.optional(),
    HAWSER_ENABLED_SHARE_PROTOCOLS: z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((protocol) => protocol.trim().toUpperCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(PROTOCOLS, expected(`protocols among ${PROTOCOLS.join(', ')}`))))
      .default(['NFS', 'CIFS']),
    HAWSER_SERVICE_DOWN_TIME_S: wholeNumber(0).default(60),
    HAWSER_REPORT_INTERVAL_S: wholeNumber(1, DAY_S).default(10),
    HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT: flag.default(false),
    HAWSER_SHARE_STATUS_POLL_MS: wholeNumber(1, DAY_MS).default(60_000),
    HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S: wholeNumber(1, DAY_S).default(300),
    HAWSER_STORAGE_RETRY_INTERVAL_MS: wholeNumber(1, DAY_MS).default(5_000),
    ...quotaVariables,
    HAWSER_RESERVATION_EXPIRE_S: wholeNumber(1, CENTURY_S).default(300),
    HAWSER_SOFT_DELETE_RETENTION_S: wholeNumber(1, CENTURY_S).default(604_800),
    // Read by libs/observability (observability-settings.ts); checked here so a typo is refused.
    HAWSER_READINESS_MAX_LAG_S: z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, expected('a number of seconds > 0'))
      .refine((text) => Number(text) > 0, expected('a number of seconds > 0'))
      .optional(),
    HAWSER_METRICS_PORT: wholeNumber(1, 65_535).optional(),
    HAWSER_METRICS_BIND: text.optional(),
    HAWSER_AGGREGATE_SNAPSHOTS: flag.default(true),
    HAWSER_POLICY_FILE: text.optional(),
    HAWSER_POLICY_ENFORCE_NEW_DEFAULTS: flag.default(true),
    HAWSER_LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'one of fatal, error, warn, info, debug, trace, silent',
      })
      .optional(),
    // Read by tests, benchmarks and tools rather than the service; known so they are not typos.
    HAWSER_FAULT_INJECTION_KILL_AT: z.string().optional(),
    HAWSER_LARGE_TESTS: z.string().optional(),
    HAWSER_FUZZ_SEED: z.string().optional(),
    HAWSER_FUZZ_COUNT: z.string().optional(),
    HAWSER_BENCH_EVENTS: z.string().optional(),
    HAWSER_QUOTA_GUEST_MOUNT: z.string().optional(),
    HAWSER_KEYSTONE_DIR: z.string().optional(),
  })
  .superRefine((env, context) => {
    if (env.HAWSER_AUTH !== 'keystone') return;
    for (const name of [
      'HAWSER_KEYSTONE_URL',
      'HAWSER_KEYSTONE_USERNAME',
      'HAWSER_KEYSTONE_PASSWORD',
    ] as const) {
      if (env[name] === undefined) {
        context.addIssue({
          code: 'custom',
          path: [name],
          message: 'a value with HAWSER_AUTH=keystone',
        });
      }
    }
  });

export type Environment = z.output<typeof environmentSchema>;

/** Every variable the schema knows, for "did you mean" and the README's table. */
export const KNOWN_VARIABLES: readonly string[] = Object.keys(environmentSchema.shape);

/** The variables the schema looks at: HAWSER_* and the named others, empty ones as unset. */
export const relevantVariables = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        entry[1] !== '' &&
        (entry[0].startsWith('HAWSER_') || KNOWN_VARIABLES.includes(entry[0])),
    ),
  );

/** The quota limits from HAWSER_QUOTA_<RESOURCE>, Manila's defaults for those unset. */
export const quotaDefaultsOf = (env: Environment): Record<string, number> => {
  const limits: Record<string, number> = { ...MANILA_DEFAULT_QUOTAS };
  const values = env as Record<string, unknown>;
  for (const resource of QUOTA_RESOURCES) {
    const value = values[`HAWSER_QUOTA_${resource.toUpperCase()}`];
    if (typeof value === 'number') limits[resource] = value;
  }
  return limits;
};
