import { z } from 'zod';
import type { BackendConfig } from './backend-config.js';

/**
 * The back-end file's entries as a zod schema: every key `backend-config.ts` declares, with its
 * type, and nothing else, so a typo (`totalCapacityGB`) or a wrong type (`reservedPercentage:
 * "five"`) is refused at start rather than ignored. The cross-field rules Manila applies at
 * service start (host@backend names, distinct pools, ...) stay in `validateBackendConfig`.
 */

const expected = (what: string) => ({ error: what });
const text = z.string(expected('a string'));
const wholeNumber = (min: number) =>
  z
    .number(expected('a number'))
    .int(expected(`a whole number >= ${min}`))
    .min(min, expected(`a whole number >= ${min}`));
/** A simulated delay is a timer's: node's timers fire at once past 2^31 - 1 ms, so at most a day. */
const latency = z
  .number(expected('a number of ms from 0 to 86400000'))
  .min(0, expected('a number of ms from 0 to 86400000'))
  .max(86_400_000, expected('a number of ms from 0 to 86400000'));
const percentage = z
  .number(expected('a number from 0 to 100'))
  .min(0, expected('a number from 0 to 100'))
  .max(100, expected('a number from 0 to 100'));
const tcpPort = wholeNumber(1).max(65535, expected('a TCP port (1-65535)'));
const flag = z.boolean(expected('true or false'));

const DRIVER_OPERATIONS = [
  'createShare',
  'deleteShare',
  'createSnapshot',
  'deleteSnapshot',
  'createShareFromSnapshot',
  'getShareStatus',
  'extendShare',
  'shrinkShare',
  'updateAccess',
  'ensureShares',
  'createReplica',
  'deleteReplica',
  'promoteReplica',
  'updateReplicaState',
  'createReplicatedSnapshot',
  'deleteReplicatedSnapshot',
  'updateReplicatedSnapshot',
  'getPoolStats',
] as const;

const DRIVER_ERROR_CODES = [
  'not_found',
  'snapshot_not_found',
  'already_exists',
  'invalid_request',
  'invalid_access',
  'unsupported',
  'capacity_exceeded',
  'shrinking_possible_data_loss',
  'replication_error',
  'backend_error',
  'injected_failure',
] as const;

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, expected(`one of ${values.join(', ')}`));

const pool = z.strictObject({
  name: text,
  totalCapacityGb: z.number(expected('a number')).positive(expected('a number > 0')).optional(),
});

const capabilityOptions = {
  shareBackendName: text.optional(),
  reservedPercentage: percentage.optional(),
  reservedSnapshotPercentage: percentage.optional(),
  reservedShareExtendPercentage: percentage.optional(),
  maxOverSubscriptionRatio: z
    .number(expected('a number >= 1'))
    .min(1, expected('a number >= 1'))
    .optional(),
  thinProvisioning: flag.optional(),
  replicationType: oneOf(['writable', 'readable', 'dr']).optional(),
  filterFunction: text.optional(),
  goodnessFunction: text.optional(),
  dedupe: flag.optional(),
  compression: flag.optional(),
  protocols: z
    .array(oneOf(['NFS', 'CIFS', 'GLUSTERFS', 'HDFS', 'CEPHFS', 'MAPRFS']), expected('a list'))
    .optional(),
  exportAddress: text.optional(),
};

const failureRule = z.strictObject({
  operation: oneOf(['*', ...DRIVER_OPERATIONS]),
  probability: percentage.max(1, expected('a probability from 0 to 1')).optional(),
  nthCall: z
    .union([wholeNumber(1), z.array(wholeNumber(1))], expected('a call number or a list of them'))
    .optional(),
  code: oneOf(DRIVER_ERROR_CODES).optional(),
  userMessage: text.optional(),
});

const simulatedOptions = z.strictObject({
  ...capabilityOptions,
  seed: z.number(expected('a number')).optional(),
  latencyMs: latency.optional(),
  operationLatencyMs: z.partialRecord(oneOf(DRIVER_OPERATIONS), latency).optional(),
  failures: z.array(failureRule, expected('a list')).optional(),
  journalFile: text.optional(),
  asyncCreateFromSnapshot: oneOf(['cross-pool', 'always', 'never']).optional(),
  createFromSnapshotPolls: wholeNumber(1).optional(),
});

const nfsServer = z.strictObject({
  mode: oneOf(['managed', 'external']).optional(),
  address: text.optional(),
  port: tcpPort.optional(),
  bindAddress: text.optional(),
  pidFile: text.optional(),
  firstExportId: wholeNumber(1).max(65534, expected('a whole number from 1 to 65534')).optional(),
  executable: text.optional(),
});

const cifsServer = z.strictObject({
  mode: oneOf(['managed', 'external']).optional(),
  address: text.optional(),
  port: tcpPort.optional(),
  bindAddress: text.optional(),
  configFile: text.optional(),
  executable: text.optional(),
});

const localOptions = z.strictObject({
  ...capabilityOptions,
  root: text,
  copyChunkBytes: wholeNumber(1).optional(),
  copyBytesPerSecond: wholeNumber(1).optional(),
  nfsServer: nfsServer.optional(),
  cifsServer: cifsServer.optional(),
});

const common = {
  name: text,
  availabilityZone: text,
  replicationDomain: text.optional(),
  pools: z.array(pool, expected('a list of pools')),
};

export const backendConfigSchema = z.discriminatedUnion(
  'driver',
  [
    z.strictObject({
      ...common,
      driver: z.literal('simulated'),
      options: simulatedOptions.optional(),
    }),
    z.strictObject({ ...common, driver: z.literal('local'), options: localOptions }),
  ],
  expected('"driver": "local" or "simulated"'),
);

/** The file: `{"backends": [...]}` (a bare list is read as that object). */
export const backendsFileSchema = z.strictObject(
  { backends: z.array(backendConfigSchema, expected('a list of back ends')) },
  expected('a list of back ends or {"backends": [...]}'),
);

// The schema's output must be a BackendConfig: a key added to one and not the other fails here.
type Conforms<T extends BackendConfig> = T;
export type ParsedBackendConfig = Conforms<z.output<typeof backendConfigSchema>>;
