import { Field, ID, ObjectType } from '@nestjs/graphql';
import { shareDocumentOf } from '#hawser/projections';
import type { AuthContext } from '../../http/request-context.js';
import type { ShareCommitted } from '../subscriptions/share-change-feed.js';
import { Share, shareOf } from './share.type.js';

@ObjectType('ShareChange', {
  description: 'A share as its projection has just applied an event to it (status, progress, ...).',
})
export class ShareChange {
  @Field(() => ID) shareId!: string;
  @Field(() => String, { description: '"deleted" once the share is gone.' }) status!: string;
  @Field(() => String, { nullable: true }) progress!: string | null;
  @Field(() => Share, { nullable: true, description: 'null once the share is gone.' })
  share!: Share | null;
}

export const shareChangeOf = (change: ShareCommitted, auth: AuthContext): ShareChange => {
  if (!change.record) {
    return { shareId: change.shareId, status: 'deleted', progress: null, share: null };
  }
  const share = shareOf(shareDocumentOf(change.record), auth);
  return { shareId: share.id, status: share.status, progress: share.progress, share };
};
