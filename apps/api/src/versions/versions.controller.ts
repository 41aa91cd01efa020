import { Controller, Get, HttpCode, Redirect, Req } from '@nestjs/common';
import type { Request } from 'express';
import { MAX_VERSION, MIN_VERSION } from '../http/microversion.js';
import { contextOf } from '../http/request-context.js';
import { Public } from '../policy/route-policy.decorators.js';

const UPDATED = '2015-08-27T11:33:21Z';

const entry = (baseUrl: string, id: 'v1.0' | 'v2.0') => ({
  id,
  status: id === 'v1.0' ? 'DEPRECATED' : 'CURRENT',
  version: id === 'v1.0' ? '' : MAX_VERSION,
  min_version: id === 'v1.0' ? '' : MIN_VERSION,
  updated: UPDATED,
  links: [
    { rel: 'describedby', type: 'text/html', href: 'http://docs.openstack.org/' },
    { rel: 'self', href: `${baseUrl}/${id === 'v1.0' ? 'v1' : 'v2'}/` },
  ],
  'media-types': [
    { base: 'application/json', type: 'application/vnd.openstack.share+json;version=1' },
  ],
});

/** Manila's versions documents (reference 3.1). Hawser serves only v2. */
@Controller()
export class VersionsController {
  @Get()
  @HttpCode(300)
  @Public()
  root(@Req() req: Request) {
    const { baseUrl } = contextOf(req);
    return { versions: [entry(baseUrl, 'v1.0'), entry(baseUrl, 'v2.0')] };
  }

  @Get('v2')
  @Redirect('/v2/', 302)
  @Public()
  v2Redirect() {
    return undefined;
  }

  @Get('v2/')
  @Public()
  v2(@Req() req: Request) {
    return { versions: [entry(contextOf(req).baseUrl, 'v2.0')] };
  }
}
