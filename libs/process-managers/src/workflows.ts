export * from './share-scheduling/placement.port.js';
export * from './share-scheduling/share-scheduling.process-manager.js';
export * from './replica-scheduling/replica-placement.port.js';
export * from './replica-scheduling/replica-scheduling.process-manager.js';
export * from './share-affinity/affinity-hints.js';
export * from './share-affinity/affinity-links.process-manager.js';
export * from './share-migration/share-migration.process-manager.js';
