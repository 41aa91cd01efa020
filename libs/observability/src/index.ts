export * from './log-context.js';
export * from './hawser-logger.js';
export * from './process-metrics.js';
export * from './observability-settings.js';
