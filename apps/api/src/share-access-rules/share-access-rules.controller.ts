import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import {
  ListAccessRules,
  holdsEveryPair,
  parseMetadataFilter,
  ShowAccessRule,
} from '#hawser/application';
import { accessListEntryView, accessRuleView } from '#hawser/api-contracts';
import { badRequest, ManilaHttpError } from '../http/manila-error.js';
import { contextOf } from '../http/request-context.js';
import { readerOf } from '../http/requester.js';
import { viewContextOf } from '../http/view-context.js';
import { accessRule, fromParam, fromQuery, share } from '../policy/policy-targets.js';
import { Policy, Since } from '../policy/route-policy.decorators.js';

/** Manila's words for the listing's unknown share (`api/v2/share_accesses.py`). */
const shareNotFound = (id: string) => badRequest(`Share ${id} not found.`);

/** Manila's share-access-rules API (2.45+, reference 3.4): a share's rules, one rule. */
@Controller('v2/share-access-rules')
@Since('2.45')
export class ShareAccessRulesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @Policy(
    'share_access_rule:index',
    // An unknown share is a 400 here, not a 404 (reference 3.4); so is one the caller may not see.
    share(fromQuery('share_id'), (id) => shareNotFound(id)),
  )
  async list(
    @Req() req: Request,
    @Query('share_id') shareId: string | undefined,
    @Query('metadata') metadataQuery: string | undefined,
  ) {
    const ctx = contextOf(req);
    const reader = readerOf(ctx);
    if (!shareId) throw badRequest("The field 'share_id' has to be specified.");
    // Manila's `metadata` filter: every rule holding each key with its value.
    const wanted = metadataQuery === undefined ? undefined : parseMetadataFilter(metadataQuery);
    // An unknown share is a 400 here, not a 404 (reference 3.4).
    const rules = await this.queries
      .execute(new ListAccessRules(shareId, reader))
      .catch((error: unknown) => {
        if (error instanceof ManilaHttpError && error.status === 404) {
          throw shareNotFound(shareId);
        }
        throw error;
      });
    const matching = wanted ? rules.filter((r) => holdsEveryPair(r.metadata, wanted)) : rules;
    return { access_list: matching.map((r) => accessListEntryView(r, viewContextOf(ctx))) };
  }

  @Get(':id')
  @Policy('share_access_rule:get', accessRule(fromParam('id')))
  async show(@Req() req: Request, @Param('id') id: string) {
    const ctx = contextOf(req);
    const rule = await this.queries.execute(new ShowAccessRule(id, readerOf(ctx)));
    return { access: accessRuleView(rule, viewContextOf(ctx)) };
  }
}
