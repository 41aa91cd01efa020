import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { DriverRegistry } from '#hawser/drivers';
import {
  DRIVER_REGISTRY,
  SHARE_NODE_OPTIONS,
  ShareNodeService,
  type ShareNodeOptions,
} from './share-node.service.js';

@Module({})
export class ShareNodeModule {
  static forRoot(options: ShareNodeOptions): DynamicModule {
    return {
      module: ShareNodeModule,
      providers: [
        { provide: SHARE_NODE_OPTIONS, useValue: options },
        {
          provide: DRIVER_REGISTRY,
          useFactory: () => {
            const logger = new Logger('share-node');
            return DriverRegistry.start(options.backends, (backend, message) =>
              logger.warn(`${backend}: ${message}`),
            );
          },
        },
        ShareNodeService,
      ],
      exports: [ShareNodeService],
    };
  }
}
