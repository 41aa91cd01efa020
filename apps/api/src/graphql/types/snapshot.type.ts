import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import type { SnapshotDocument } from '#hawser/projections';

@ObjectType('Snapshot')
export class Snapshot {
  @Field(() => ID) id!: string;
  @Field(() => ID) shareId!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) status!: string | null;
  @Field(() => String, { nullable: true }) progress!: string | null;
  @Field(() => Int) size!: number;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

export const snapshotOf = (doc: SnapshotDocument): Snapshot => ({
  id: doc.id,
  shareId: doc.share_id,
  name: doc.name,
  description: doc.description,
  status: doc.status,
  progress: doc.progress,
  size: doc.size,
  createdAt: doc.created_at,
  updatedAt: doc.updated_at,
});
