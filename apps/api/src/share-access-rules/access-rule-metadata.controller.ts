import { Body, Controller, Delete, Param, Put, Req } from '@nestjs/common';
import type { Request } from 'express';
import type { AccessRuleDocument } from '#hawser/projections';
import { notFoundError } from '../http/manila-error.js';
import { metadataFromBody } from '../http/metadata-body.js';
import { requireAuth } from '../http/policy.js';
import { contextOf } from '../http/request-context.js';
import { accessRule, fromParam } from '../policy/policy-targets.js';
import { Policy, Since } from '../policy/route-policy.decorators.js';
import { SharesService } from '../shares/shares.service.js';

const theRule = accessRule(fromParam('id'));

/**
 * An access rule's metadata (2.45+): PUT merges keys and answers the whole map, DELETE removes
 * one key (`manila access-metadata RULE set|unset`). The rules are checked on the share's project.
 */
@Controller('v2/share-access-rules')
@Since('2.45')
export class AccessRuleMetadataController {
  constructor(private readonly shares: SharesService) {}

  @Put(':id/metadata')
  @Policy('share_access_metadata:update', theRule)
  async update(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const rule = await this.writableRule(req, id);
    await this.run(req, rule, metadataFromBody(body), []);
    const updated = await this.shares.findAccessRule(rule.id, requireAuth(contextOf(req)));
    return { metadata: updated.metadata };
  }

  @Delete(':id/metadata/:key')
  @Policy('share_access_metadata:delete', theRule)
  async remove(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    const rule = await this.writableRule(req, id);
    if (!Object.hasOwn(rule.metadata, key)) throw notFoundError('Metadata item was not found');
    await this.run(req, rule, {}, [key]);
  }

  private async writableRule(req: Request, id: string): Promise<AccessRuleDocument> {
    return this.shares.findAccessRule(id, requireAuth(contextOf(req)));
  }

  private run(
    req: Request,
    rule: AccessRuleDocument,
    set: Record<string, string>,
    unset: string[],
  ): Promise<void> {
    return this.shares.run(rule.share_id, contextOf(req), {
      type: 'ChangeAccessRuleMetadata',
      accessId: rule.id,
      set,
      unset,
      now: new Date().toISOString(),
    });
  }
}
