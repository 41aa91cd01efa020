import { QueryBus } from '@nestjs/cqrs';
import { Args, Context, ID, Resolver, Subscription } from '@nestjs/graphql';
import { ShowShare } from '#hawser/application';
import { projectArgument } from '../../policy/graphql-targets.js';
import { Policy } from '../../policy/route-policy.decorators.js';
import type { AuthContext } from '../../http/request-context.js';
import { graphqlReader, type GraphqlContext } from '../graphql-context.js';
import { ChangeStream } from '../subscriptions/change-stream.js';
import { ShareChangeFeed, type ShareCommitted } from '../subscriptions/share-change-feed.js';
import { ShareChange, shareChangeOf } from '../types/share-change.type.js';

/** As the share's REST show: admins, its project, and anyone while it is public. */
const mayRead = (change: ShareCommitted, auth: AuthContext): boolean =>
  auth.isAdmin || change.projectId === auth.projectId || change.record?.is_public === true;

/**
 * Pushes shares' status and progress as the projection applies their events, so a client can
 * follow a long creation without polling.
 */
@Resolver(() => ShareChange)
export class ShareChangesResolver {
  constructor(
    private readonly feed: ShareChangeFeed,
    private readonly queries: QueryBus,
  ) {}

  @Subscription(() => ShareChange, {
    description: 'Every change of one share the caller may read, until it is deleted.',
    resolve: (change: ShareChange) => change,
  })
  @Policy('hawser:share_changes:subscribe')
  async shareChanged(
    @Args('id', { type: () => ID }) id: string,
    @Context() ctx: GraphqlContext,
  ): Promise<AsyncIterableIterator<ShareChange>> {
    const share = await this.queries.execute(new ShowShare(id, graphqlReader(ctx)));
    return this.stream(
      ctx.auth,
      (change) => change.shareId === share.id && (!change.record || mayRead(change, ctx.auth)),
    );
  }

  @Subscription(() => ShareChange, {
    description: "Every change of a project's shares: the caller's own unless admin.",
    resolve: (change: ShareChange) => change,
  })
  @Policy('hawser:share_changes:subscribe', projectArgument('projectId'))
  projectSharesChanged(
    @Context() ctx: GraphqlContext,
    @Args('projectId', { type: () => ID, nullable: true }) projectId?: string,
  ): AsyncIterableIterator<ShareChange> {
    const project = projectId ?? ctx.auth.projectId;
    return this.stream(ctx.auth, (change) => change.projectId === project);
  }

  private stream(
    auth: AuthContext,
    wanted: (change: ShareCommitted) => boolean,
  ): AsyncIterableIterator<ShareChange> {
    const stream: ChangeStream<ShareChange> = new ChangeStream(() => stop());
    const stop = this.feed.listen((change) => {
      if (wanted(change)) stream.push(shareChangeOf(change, auth));
    });
    return stream;
  }
}
