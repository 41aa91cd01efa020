import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CAPABILITY_REPORTS } from './capability-reports.js';
import type { NatsConnectionOptions } from './nats-capability-reports.js';

/** The transport between Hawser's processes when they run apart: capability reports over NATS. */
@Global()
@Module({})
export class NatsTransportModule {
  static forRoot(options: NatsConnectionOptions): DynamicModule {
    return {
      module: NatsTransportModule,
      providers: [
        {
          provide: CAPABILITY_REPORTS,
          // Nest's NATS transport is loaded only by the processes that use it.
          useFactory: async () => {
            const { NatsCapabilityReports } = await import('./nats-capability-reports.js');
            return new NatsCapabilityReports(options);
          },
        },
      ],
      exports: [CAPABILITY_REPORTS],
    };
  }
}
