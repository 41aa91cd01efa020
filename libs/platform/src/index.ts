export * from './config/hawser-config.js';
export * from './tokens/tokens.js';
