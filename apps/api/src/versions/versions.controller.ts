import { Controller, Get, HttpCode, Req } from '@nestjs/common';
import type { Request } from 'express';
import { MAX_VERSION, MIN_VERSION } from '../http/microversion.js';
import { contextOf } from '../http/request-context.js';
import { Public } from '../policy/route-policy.decorators.js';

const UPDATED = '2015-08-27T11:33:21Z';

const v2Entry = (baseUrl: string) => ({
  id: 'v2.0',
  status: 'CURRENT',
  version: MAX_VERSION,
  min_version: MIN_VERSION,
  updated: UPDATED,
  links: [
    { rel: 'describedby', type: 'text/html', href: 'http://docs.openstack.org/' },
    { rel: 'self', href: `${baseUrl}/v2/` },
  ],
  'media-types': [
    { base: 'application/json', type: 'application/vnd.openstack.share+json;version=1' },
  ],
});

/**
 * Manila's versions documents (reference 3.1). Hawser serves only v2: Manila's deprecated v1
 * (`/v1`, the 2.0 behaviour without microversion headers) is neither served nor listed.
 */
@Controller()
export class VersionsController {
  @Get()
  @HttpCode(300)
  @Public()
  root(@Req() req: Request) {
    const { baseUrl } = contextOf(req);
    return { versions: [v2Entry(baseUrl)] };
  }

  /** Manila's v2 versions document, with or without the trailing slash. */
  @Get('v2')
  @Public()
  v2(@Req() req: Request) {
    return { versions: [v2Entry(contextOf(req).baseUrl)] };
  }
}
