import { Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ListMessages, ListShareTypes } from '#hawser/application';
import { Args, Context, ID, Int, Query, Resolver } from '@nestjs/graphql';
import { listPools } from '#hawser/scheduler';
import { HAWSER_CONFIG, type HawserConfig } from '#hawser/platform';
import { Policy } from '../../policy/route-policy.decorators.js';
import {
  POOL_STATE_SOURCE,
  type PoolStateSource,
} from '../../scheduler-stats/pool-state.source.js';
import { graphqlReader, viewContextFor, type GraphqlContext } from '../graphql-context.js';
import { UserMessage, userMessageOf } from '../types/message.type.js';
import { Pool, poolOf } from '../types/pool.type.js';
import { ShareType, shareTypeOf } from '../types/share-type.type.js';

const MAX_MESSAGES_PAGE = 1000;

/** Share types, pools with their capacity, and user messages: the listings around shares. */
@Resolver()
export class CatalogueResolver {
  constructor(
    private readonly queries: QueryBus,
    @Inject(HAWSER_CONFIG) private readonly config: HawserConfig,
    @Inject(POOL_STATE_SOURCE) private readonly poolState: PoolStateSource,
  ) {}

  @Query(() => [ShareType], {
    description: 'The share types the caller may use (admins: all of them), by name.',
  })
  @Policy('share_type:index')
  async shareTypes(@Context() ctx: GraphqlContext): Promise<ShareType[]> {
    const isPublic = ctx.auth.isAdmin ? 'all' : undefined;
    const types = await this.queries.execute(new ListShareTypes(isPublic, graphqlReader(ctx)));
    const view = viewContextFor(ctx.auth);
    return types.map((type) => shareTypeOf(type, view, this.config.defaultShareType));
  }

  @Query(() => [Pool], {
    description: "The scheduler's live pools and their capacity (admin only).",
  })
  @Policy('scheduler_stats:pools:index')
  pools(): Pool[] {
    return listPools(this.poolState.registry, Date.now()).map(poolOf);
  }

  @Query(() => [UserMessage], {
    description: "User messages, newest first: the caller's project unless admin.",
  })
  @Policy('message:get_all')
  async messages(
    @Context() ctx: GraphqlContext,
    @Args('first', { type: () => Int, defaultValue: 50 }) first = 50,
    @Args('resourceId', { type: () => ID, nullable: true }) resourceId?: string,
  ): Promise<UserMessage[]> {
    // A REST limit of 0 means no limit; here it means none.
    if (first === 0) return [];
    const query: Record<string, string> = { limit: String(Math.min(first, MAX_MESSAGES_PAGE)) };
    if (resourceId) query.resource_id = resourceId;
    const { messages } = await this.queries.execute(new ListMessages(query, graphqlReader(ctx)));
    return messages.map(userMessageOf);
  }
}
