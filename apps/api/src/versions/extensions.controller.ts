import { Controller, Get, Param } from '@nestjs/common';
import { notFoundError } from '../http/manila-error.js';
import { Policy } from '../policy/route-policy.decorators.js';

/**
 * Manila's extensions listing. Manila 15.1 ships no API extension (its `contrib` package is
 * empty), and neither does Hawser: the list is empty and any alias is a 404.
 */
@Controller('v2/extensions')
export class ExtensionsController {
  @Get()
  @Policy('hawser:extensions:index')
  list() {
    return { extensions: [] };
  }

  @Get(':alias')
  @Policy('hawser:extensions:index')
  show(@Param('alias') alias: string) {
    throw notFoundError(`Extension ${alias} could not be found.`);
  }
}
