import { Module, type DynamicModule } from '@nestjs/common';
import { SCHEDULER_OPTIONS, SchedulerService, type SchedulerOptions } from './scheduler.service.js';

@Module({})
export class SchedulerModule {
  static forRoot(options: SchedulerOptions = {}): DynamicModule {
    return {
      module: SchedulerModule,
      providers: [{ provide: SCHEDULER_OPTIONS, useValue: options }, SchedulerService],
      exports: [SchedulerService],
    };
  }
}
