import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CAPABILITY_REPORTS } from './capability-reports.js';
import { NatsCapabilityReports, type NatsConnectionOptions } from './nats-capability-reports.js';

/** The transport between Hawser's processes when they run apart: capability reports over NATS. */
@Global()
@Module({})
export class NatsTransportModule {
  static forRoot(options: NatsConnectionOptions): DynamicModule {
    return {
      module: NatsTransportModule,
      providers: [
        { provide: NatsCapabilityReports, useFactory: () => new NatsCapabilityReports(options) },
        { provide: CAPABILITY_REPORTS, useExisting: NatsCapabilityReports },
      ],
      exports: [CAPABILITY_REPORTS],
    };
  }
}
