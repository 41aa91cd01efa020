import { loadConfig } from './hawser-config.js';
import { closestKey } from './configuration-error.js';

describe('the environment schema', () => {
  it('given no variables, then every setting has its documented default', () => {
    const config = loadConfig({});

    expect(config).toMatchObject({
      port: 8786,
      bind: '127.0.0.1',
      auth: 'noauth',
      natsServers: undefined,
      storeWaitS: 30,
      readYourWritesMs: 5000,
      heapGrowthPercent: 50,
      bodyLimit: '256kb',
      enabledShareProtocols: ['NFS', 'CIFS'],
      reservationExpireS: 300,
      aggregateSnapshots: true,
      policyEnforceNewDefaults: true,
      useSchedulerCreatingShareFromSnapshot: false,
      storageRetryIntervalMs: 5000,
    });
  });

  it('given empty values, then they count as unset', () => {
    expect(loadConfig({ PORT: '', HAWSER_AUTH: '', NATS_URL: '' })).toMatchObject({
      port: 8786,
      auth: 'noauth',
      natsServers: undefined,
    });
  });

  it('given flags, lists and quotas in their accepted spellings, then they are read', () => {
    const config = loadConfig({
      HAWSER_AGGREGATE_SNAPSHOTS: 'off',
      HAWSER_USE_SCHEDULER_CREATING_SHARE_FROM_SNAPSHOT: 'Yes',
      HAWSER_ENABLED_SHARE_PROTOCOLS: 'nfs, cephfs',
      NATS_URL: 'nats://a:4222, b:4222',
      HAWSER_QUOTA_SHARES: '-1',
    });

    expect(config).toMatchObject({
      aggregateSnapshots: false,
      useSchedulerCreatingShareFromSnapshot: true,
      enabledShareProtocols: ['NFS', 'CEPHFS'],
      natsServers: ['nats://a:4222', 'b:4222'],
    });
    expect(config.quotaDefaults.shares).toBe(-1);
  });

  it.each([
    ['PORT', '70000', 'expected a whole number from 0 to 65535, given "70000"'],
    ['HAWSER_AGGREGATE_SNAPSHOTS', 'maybe', 'expected true or false, given "maybe"'],
    ['HAWSER_ENABLED_SHARE_PROTOCOLS', 'NFS,SMB', 'expected protocols among NFS, CIFS'],
    ['HAWSER_QUOTA_GIGABYTES', '-2', 'expected a whole number >= -1, given "-2"'],
    [
      'HAWSER_STORAGE_RETRY_INTERVAL_MS',
      '0',
      'expected a whole number from 1 to 86400000, given "0"',
    ],
    ['HAWSER_HEAP_GROWTH_PERCENT', '500', 'expected a whole number from 0 to 400, given "500"'],
    [
      'HAWSER_READ_YOUR_WRITES_MS',
      '4294967296',
      'expected a whole number from 0 to 86400000, given "4294967296"',
    ],
    ['HAWSER_REPORT_INTERVAL_S', '0', 'expected a whole number from 1 to 86400, given "0"'],
    ['HAWSER_SHARE_STATUS_POLL_MS', '0', 'expected a whole number from 1 to 86400000, given "0"'],
    [
      'HAWSER_REPLICA_STATE_UPDATE_INTERVAL_S',
      '86401',
      'expected a whole number from 1 to 86400, given "86401"',
    ],
    [
      'HAWSER_PROJECTOR_LEASE_MS',
      '86400001',
      'expected a whole number from 300 to 86400000, given "86400001"',
    ],
    ['HAWSER_STORE_WAIT_S', '86401', 'expected a whole number from 1 to 86400, given "86401"'],
    [
      'HAWSER_SOFT_DELETE_RETENTION_S',
      '9007199254740991',
      'expected a whole number from 1 to 3153600000, given "9007199254740991"',
    ],
    [
      'HAWSER_RESERVATION_EXPIRE_S',
      '3153600001',
      'expected a whole number from 1 to 3153600000, given "3153600001"',
    ],
    ['MONGO_URL', 'localhost:27017', 'expected a MongoDB URL (mongodb://host:27017/hawser)'],
    [
      'HAWSER_LOG_LEVEL',
      'verbose',
      'expected one of fatal, error, warn, info, debug, trace, silent',
    ],
  ])(
    'given %s=%s, then it is refused naming the variable and what was expected',
    (name, value, message) => {
      expect(() => loadConfig({ [name]: value })).toThrow(
        `environment variable ${name}: ${message}`,
      );
    },
  );

  it('given a variable outside HAWSER_* the schema does not name, then it is ignored', () => {
    expect(() =>
      loadConfig({ HOME: '/root', NODE_OPTIONS: '--max-old-space-size=512' }),
    ).not.toThrow();
  });
});

describe('closestKey', () => {
  it.each([
    ['totalCapacityGB', 'totalCapacityGb'],
    ['reserved_percentage', 'reservedPercentage'],
    ['reservedPercentag', 'reservedPercentage'],
    ['somethingElse', undefined],
  ])('given %s, then it suggests %s', (typo, suggestion) => {
    expect(closestKey(typo, ['name', 'totalCapacityGb', 'reservedPercentage'])).toBe(suggestion);
  });
});
