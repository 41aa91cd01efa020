/** @jest-config-loader-options {"transpileOnly": true, "compilerOptions": {"module": "CommonJS", "moduleResolution": "Node10"}} */
import type { Config } from 'jest';

// NestJS 12 ships ES modules only, so the suite runs in Jest's ESM mode
// (node --experimental-vm-modules, see the "test" script) with swc compiling TypeScript,
// keeping the legacy decorators and their metadata that NestJS reads.
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/eventstore', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: {
    '^#hawser/(.*)$': '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 30_000,
  maxWorkers: 2,
  // Each test file's modules stay in its worker's heap: after the apps' suites a worker held
  // about 3 GB, took longer than Jest's 500 ms to exit, and was killed ("failed to exit
  // gracefully"). A worker past 1 GB after a file is replaced instead.
  workerIdleMemoryLimit: '1GB',
  // A worker near that size takes longer than Jest's default 500 ms to end its process once
  // the run is over (it held no handle: only Jest's pipes were open at its exit), and Jest then
  // kills it and prints "failed to exit gracefully". Give it the time it takes.
  workerGracefulExitTimeout: 5_000,
};

export default config;
