import { Field, ID, ObjectType } from '@nestjs/graphql';
import type { MessageDocument } from '#hawser/projections';

@ObjectType('UserMessage', { description: 'Why an asynchronous request failed (Manila messages).' })
export class UserMessage {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: string;
  @Field(() => String) resourceType!: string;
  @Field(() => ID) resourceId!: string;
  @Field(() => String) actionId!: string;
  @Field(() => String) detailId!: string;
  @Field(() => String) messageLevel!: string;
  @Field(() => String) userMessage!: string;
  @Field(() => String, { nullable: true }) requestId!: string | null;
  @Field(() => String) createdAt!: string;
  @Field(() => String) expiresAt!: string;
}

export const userMessageOf = (doc: MessageDocument): UserMessage => ({
  id: doc.id,
  projectId: doc.project_id,
  resourceType: doc.resource_type,
  resourceId: doc.resource_id,
  actionId: doc.action_id,
  detailId: doc.detail_id,
  messageLevel: doc.message_level,
  userMessage: doc.user_message,
  requestId: doc.request_id,
  createdAt: doc.created_at,
  expiresAt: doc.expires_at,
});
