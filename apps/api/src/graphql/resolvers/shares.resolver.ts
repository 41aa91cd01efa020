import { Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  Args,
  Context,
  Extensions,
  ID,
  Int,
  Parent,
  Query,
  ResolveField,
  Resolver,
} from '@nestjs/graphql';
import { ListShares, ShowShare } from '#hawser/application';
import { shareStream } from '#hawser/domain';
import type { EventStore } from '#hawser/eventstore';
import { EVENT_STORE } from '#hawser/platform';
import { badRequest } from '../../http/manila-error.js';
import { parentShare, parentShareOwners } from '../../policy/graphql-targets.js';
import { Policy } from '../../policy/route-policy.decorators.js';
import { graphqlReader, type GraphqlContext } from '../graphql-context.js';
import { AccessRule, accessRuleOf } from '../types/access-rule.type.js';
import { Replica, replicaOf } from '../types/replica.type.js';
import { ShareEvent, shareEventOf } from '../types/share-event.type.js';
import { manilaShareQuery, ShareFilter, ShareSort } from '../types/share-query.input.js';
import { Share, ShareConnection, shareOf } from '../types/share.type.js';
import { Snapshot, snapshotOf } from '../types/snapshot.type.js';

/** The largest page of shares one request may ask for. */
export const MAX_SHARES_PAGE = 100;
const MAX_EVENTS_PAGE = 1000;

/** Cursors are opaque to clients: the id of the last share of a page, encoded. */
const cursorOf = (shareId: string) => Buffer.from(`share:${shareId}`).toString('base64url');
const markerOf = (cursor: string): string => {
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!text.startsWith('share:')) throw badRequest(`Invalid cursor: ${cursor}`);
  return text.slice('share:'.length);
};

const pageSize = (name: string, value: number, max: number): number => {
  if (value < 0 || value > max) throw badRequest(`${name} must be from 0 to ${max}`);
  return value;
};

/** Shares and what hangs off them, with the REST API's listing, policy and views. */
@Resolver(() => Share)
export class SharesResolver {
  constructor(
    private readonly queries: QueryBus,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
  ) {}

  @Query(() => Share, {
    description: 'A share the caller may read (its own, public, or any for admins).',
  })
  @Policy('share:get')
  async share(
    @Args('id', { type: () => ID }) id: string,
    @Context() ctx: GraphqlContext,
  ): Promise<Share> {
    return shareOf(await this.queries.execute(new ShowShare(id, graphqlReader(ctx))), ctx.auth);
  }

  @Policy('share:get_all')
  @Query(() => ShareConnection, {
    description: `Shares as Manila lists them (the caller's project; filters, sorting), a page at a time (first at most ${MAX_SHARES_PAGE}).`,
  })
  async shares(
    @Context() ctx: GraphqlContext,
    @Args('filter', { type: () => ShareFilter, nullable: true }) filter?: ShareFilter | null,
    @Args('sort', { type: () => ShareSort, nullable: true }) sort?: ShareSort | null,
    @Args('first', { type: () => Int, defaultValue: 20 }) first = 20,
    @Args('after', { type: () => String, nullable: true }) after?: string,
  ): Promise<ShareConnection> {
    const limit = pageSize('first', first, MAX_SHARES_PAGE);
    const asked = manilaShareQuery(filter, sort);
    const query = {
      ...asked,
      // As documented on the filter: for a caller without `share:list_by_host`, no filter.
      host: ctx.policy.allows('share:list_by_host') ? asked.host : undefined,
      limit: String(limit),
      marker: after === undefined || after === null ? undefined : markerOf(after),
    };
    const page = await this.queries.execute(new ListShares(query, graphqlReader(ctx)));
    const last = page.shares[page.shares.length - 1];
    return {
      nodes: page.shares.map((doc) => shareOf(doc, ctx.auth)),
      totalCount: await page.count(),
      pageInfo: {
        endCursor: last ? cursorOf(last.id) : null,
        hasNextPage: page.nextMarker !== undefined,
      },
    };
  }

  @ResolveField(() => [Replica], {
    description: 'Its instances: one, or its replicas with their replica state.',
  })
  @Extensions({ listSize: 3 })
  @Policy('share_replica:get_all', parentShare)
  async replicas(@Parent() share: Share, @Context() ctx: GraphqlContext): Promise<Replica[]> {
    const docs = await ctx.loaders.replicas.load(share.id);
    return docs.map((doc) => replicaOf(doc, ctx.auth));
  }

  @ResolveField(() => [Snapshot], {
    description: "Its snapshots, for admins and the share's project.",
  })
  @Policy('share_snapshot:get_all_snapshots')
  async snapshots(@Parent() share: Share, @Context() ctx: GraphqlContext): Promise<Snapshot[]> {
    const docs = await ctx.loaders.snapshots.load(share.id);
    return docs
      .filter((doc) => ctx.auth.isAdmin || doc.project_id === ctx.auth.projectId)
      .map(snapshotOf);
  }

  @ResolveField(() => [AccessRule])
  @Policy('share:access_get_all', parentShare)
  async accessRules(@Parent() share: Share, @Context() ctx: GraphqlContext): Promise<AccessRule[]> {
    return (await ctx.loaders.accessRules.load(share.id)).map(accessRuleOf);
  }

  @ResolveField(() => [ShareEvent], {
    nullable: true,
    description:
      "Its history, oldest first: for admins and the share's project; the data is admin only.",
  })
  @Policy('hawser:share_events:get', parentShareOwners)
  async events(
    @Parent() share: Share,
    @Context() ctx: GraphqlContext,
    @Args('first', { type: () => Int, defaultValue: 50 }) first = 50,
    @Args('fromRevision', { type: () => Int, nullable: true }) fromRevision?: number,
  ): Promise<ShareEvent[]> {
    const events = await this.eventStore.readStream(shareStream(share.id), {
      direction: 'forwards',
      ...(fromRevision !== undefined && fromRevision !== null && { fromRevision }),
      maxCount: pageSize('first', first, MAX_EVENTS_PAGE),
    });
    return events.map((event) => shareEventOf(event, ctx.auth));
  }
}
