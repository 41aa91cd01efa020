import { Controller, Get } from '@nestjs/common';
import { Public } from '../policy/route-policy.decorators.js';
import { HAWSER_OPENAPI_DOCUMENT } from './hawser-openapi.document.js';

/**
 * Serves the OpenAPI document of Hawser's own endpoints. It needs no token (the HTTP pipeline
 * lets its path through): it holds no data, only the shape of an API whose every operation
 * still needs an admin token, and tools read it before they have one.
 */
@Controller('hawser/v1')
export class OpenApiController {
  @Get('openapi.json')
  @Public()
  document() {
    return HAWSER_OPENAPI_DOCUMENT;
  }
}
