export * from './command-handler.js';
export * from './fault-injection.js';
