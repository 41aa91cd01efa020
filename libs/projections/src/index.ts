export * from './shares/share.documents.js';
export * from './shares/shares.projection.js';
export * from './shares/share-instances.projection.js';
export * from './share-types/share-types.projection.js';
export * from './backends/backends.projection.js';
export * from './quotas/quotas.projection.js';
export * from './messages/messages.projection.js';
export { ALL_PROJECTIONS } from './all-projections.js';
