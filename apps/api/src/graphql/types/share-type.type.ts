import { Field, ID, ObjectType } from '@nestjs/graphql';
import { shareTypeView, type ViewContext } from '#hawser/api-contracts';
import type { ShareTypeDocument } from '#hawser/projections';
import { entriesOf, KeyValue } from './key-value.type.js';

@ObjectType('ShareType')
export class ShareType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => Boolean) isPublic!: boolean;
  @Field(() => Boolean) isDefault!: boolean;
  @Field(() => [KeyValue], { description: 'Non-admins see the tenant-visible specs only.' })
  extraSpecs!: KeyValue[];
}

/** From Manila's own view, so the tenant-visible specs are chosen in one place. */
export const shareTypeOf = (
  doc: ShareTypeDocument,
  ctx: ViewContext,
  defaultShareType: string | undefined,
): ShareType => {
  const view = shareTypeView(doc, ctx, defaultShareType);
  return {
    id: doc.id,
    name: doc.name,
    description: doc.description,
    isPublic: doc.is_public,
    isDefault: view.is_default === true,
    extraSpecs: entriesOf(view.extra_specs as Record<string, unknown>),
  };
};
