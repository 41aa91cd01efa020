import { Field, ID, ObjectType } from '@nestjs/graphql';
import type { AccessRuleDocument } from '#hawser/projections';

@ObjectType('AccessRule')
export class AccessRule {
  @Field(() => ID) id!: string;
  @Field(() => String) accessType!: string;
  @Field(() => String) accessTo!: string;
  @Field(() => String) accessLevel!: string;
  @Field(() => String, { nullable: true }) accessKey!: string | null;
  @Field(() => String) state!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

export const accessRuleOf = (doc: AccessRuleDocument): AccessRule => ({
  id: doc.id,
  accessType: doc.access_type,
  accessTo: doc.access_to,
  accessLevel: doc.access_level,
  accessKey: doc.access_key,
  state: doc.state,
  createdAt: doc.created_at,
  updatedAt: doc.updated_at,
});
