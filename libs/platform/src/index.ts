export * from './config/hawser-config.js';
export * from './tokens/tokens.js';
export * from './persistence/persistence.module.js';
export * from './transport/capability-reports.js';
export * from './projections/projections.module.js';
export * from './workflows/workflow-runners.js';
