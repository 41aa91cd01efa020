import { Global, Module, type DynamicModule, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { PoolStateRegistry } from '#hawser/scheduler';
import { POOL_STATE_SOURCE, type PoolStateSource } from './pool-state.source.js';
import { ReportedPoolState } from './reported-pool-state.js';

/**
 * Chooses the API's pool state by composition: the all-in-one process reads the in-process
 * scheduler's registry (placements debited as the scheduler sees them); the separate API
 * process keeps its own from the capability reports.
 */
@Global()
@Module({})
export class PoolStateModule {
  static fromCapabilityReports(): DynamicModule {
    return {
      module: PoolStateModule,
      providers: [{ provide: POOL_STATE_SOURCE, useClass: ReportedPoolState }],
      exports: [POOL_STATE_SOURCE],
    };
  }

  /** `scheduler` is resolved on first use, from whichever module provides it. */
  static fromScheduler<T>(
    scheduler: Type<T>,
    registryOf: (scheduler: T) => PoolStateRegistry,
  ): DynamicModule {
    return {
      module: PoolStateModule,
      providers: [
        {
          provide: POOL_STATE_SOURCE,
          inject: [ModuleRef],
          useFactory: (moduleRef: ModuleRef): PoolStateSource => ({
            get registry() {
              return registryOf(moduleRef.get(scheduler, { strict: false }));
            },
            schedulerInProcess: true,
          }),
        },
      ],
      exports: [POOL_STATE_SOURCE],
    };
  }
}
