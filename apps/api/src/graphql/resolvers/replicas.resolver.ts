import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { shareDocumentOf } from '#hawser/projections';
import { Policy } from '../../policy/route-policy.decorators.js';
import type { GraphqlContext } from '../graphql-context.js';
import { Replica } from '../types/replica.type.js';
import { Share, shareOf } from '../types/share.type.js';

/** From a replica back to its share (read with the other replicas' shares in one query). */
@Resolver(() => Replica)
export class ReplicasResolver {
  @ResolveField(() => Share, { nullable: true, description: 'null once the share is gone.' })
  @Policy('share:get')
  async share(@Parent() replica: Replica, @Context() ctx: GraphqlContext): Promise<Share | null> {
    const record = await ctx.loaders.shareRecords.load(replica.shareId);
    return record ? shareOf(shareDocumentOf(record), ctx.auth) : null;
  }
}
