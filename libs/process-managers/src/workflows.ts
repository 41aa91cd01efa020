export * from './share-scheduling/placement.port.js';
export * from './share-scheduling/share-scheduling.process-manager.js';
export * from './share-node-operations/share-driver-operations.js';
export * from './share-node-operations/share-node-operations.process-manager.js';
