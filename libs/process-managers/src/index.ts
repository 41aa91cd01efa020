export * from './runtime/process-manager.js';
export * from './runtime/workflow.js';
export * from './runtime/workflow-process-manager.js';
export * from './runtime/process-manager-runner.js';
export * from './runtime/retry-policy.js';
export * from './runtime/parked-event.js';
export * from './runtime/derived-id.js';
// The process managers themselves.
export * from './workflows.js';
export * from './quota-release/quota-release.process-manager.js';
export * from './reservation-expiry/pending-reservations.process-manager.js';
export * from './reservation-expiry/reservation-expiry.js';
export * from './recycle-bin/recycle-bin-expiry.js';
