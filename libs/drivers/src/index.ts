export * from './contract/share-driver.js';
export * from './contract/driver-error.js';
export * from './contract/share-host.js';
export * from './config/backend-config.js';
export { validateBackendConfig } from './config/backend-config.validate.js';
export { backendConfigSchema, backendsFileSchema } from './config/backend-config.schema.js';
export { createDriver, DriverRegistry } from './registry/driver-registry.js';
export { SimulatedShareDriver } from './simulated/simulated.driver.js';
export type { SimulatedShareView } from './simulated/simulated-storage.js';
export type { JournalEntry, JournalOutcome } from './simulated/operation-journal.js';
export { OperationJournal } from './simulated/operation-journal.js';
export { LocalShareDriver } from './local/local.driver.js';
export type {
  SizeEnforcement,
  SizeEnforcementStrategy,
} from './local/size-enforcement/size-enforcement.js';
export type { AppliedAccessRule } from './common/access-rules.js';
export { sampleBackends, SAMPLE_REPLICATION_DOMAIN } from './config/sample-backends.js';
export {
  currentProcess,
  livenessOf,
  type Liveness,
  type ProcessIdentity,
} from './local/process-identity.js';
