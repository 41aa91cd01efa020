export * from './contract/share-driver.js';
export * from './contract/driver-error.js';
export * from './contract/share-host.js';
