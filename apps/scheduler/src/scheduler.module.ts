import { Module, type DynamicModule } from '@nestjs/common';
import { SchedulerService } from './scheduler.service.js';

@Module({})
export class SchedulerModule {
  static forRoot(): DynamicModule {
    return { module: SchedulerModule, providers: [SchedulerService], exports: [SchedulerService] };
  }
}
