import { Body, Controller, Delete, Param, Put, Req } from '@nestjs/common';
import type { Request } from 'express';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  SetAccessRuleMetadata,
  ShowAccessRule,
  UnsetAccessRuleMetadata,
} from '#hawser/application';
import { metadataFromBody } from '../http/metadata-body.js';
import { contextOf } from '../http/request-context.js';
import { readerOf, requesterOf } from '../http/requester.js';
import { accessRule, fromParam } from '../policy/policy-targets.js';
import { Policy, Since } from '../policy/route-policy.decorators.js';

const theRule = accessRule(fromParam('id'));

/**
 * An access rule's metadata (2.45+): PUT merges keys and answers the whole map, DELETE removes
 * one key (`manila access-metadata RULE set|unset`). The rules are checked on the share's project.
 */
@Controller('v2/share-access-rules')
@Since('2.45')
export class AccessRuleMetadataController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Put(':id/metadata')
  @Policy('share_access_metadata:update', theRule)
  async update(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const ctx = contextOf(req);
    // The rule is looked up before the body is read: an unknown rule is a 404 whatever the body.
    const rule = await this.queries.execute(new ShowAccessRule(id, readerOf(ctx)));
    const set = metadataFromBody(body);
    return {
      metadata: await this.commands.execute(
        new SetAccessRuleMetadata(rule.id, set, requesterOf(ctx)),
      ),
    };
  }

  @Delete(':id/metadata/:key')
  @Policy('share_access_metadata:delete', theRule)
  async remove(@Req() req: Request, @Param('id') id: string, @Param('key') key: string) {
    await this.commands.execute(new UnsetAccessRuleMetadata(id, key, requesterOf(contextOf(req))));
  }
}
