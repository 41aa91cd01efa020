export * from './operations/placement-admission.js';
export * from './operations/share-driver-operations.js';
export * from './operations/share-node-operations.process-manager.js';
export * from './operations/replica-node-operations.process-manager.js';
export * from './operations/instrumented-driver.js';
export * from './operations/share-migration-node.process-manager.js';
