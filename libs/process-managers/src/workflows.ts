export * from './share-scheduling/placement.port.js';
export * from './share-scheduling/share-scheduling.process-manager.js';
export * from './share-node-operations/share-driver-operations.js';
export * from './share-node-operations/share-node-operations.process-manager.js';
export * from './share-node-operations/replica-node-operations.process-manager.js';
export * from './replica-scheduling/replica-placement.port.js';
export * from './replica-scheduling/replica-scheduling.process-manager.js';
