export * from './command-handler.js';
