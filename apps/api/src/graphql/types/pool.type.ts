import { Field, Float, ObjectType } from '@nestjs/graphql';
import type { PoolView } from '#hawser/scheduler';

@ObjectType('Pool', { description: 'A back-end pool the scheduler places shares on (admin only).' })
export class Pool {
  @Field(() => String, { description: 'host@backend#pool' }) name!: string;
  @Field(() => String) host!: string;
  @Field(() => String, { nullable: true }) backend!: string | null;
  @Field(() => String, { nullable: true }) pool!: string | null;
  @Field(() => String, { nullable: true }) availabilityZone!: string | null;
  @Field(() => Float, { nullable: true, description: 'null when the back end reports unknown.' })
  totalCapacityGb!: number | null;
  @Field(() => Float, { nullable: true, description: 'null when unknown or infinite.' })
  freeCapacityGb!: number | null;
  @Field(() => Float) allocatedCapacityGb!: number;
  @Field(() => Float, { nullable: true }) provisionedCapacityGb!: number | null;
  @Field(() => String) reportedAt!: string;
}

const known = (value: number | 'unknown' | null): number | null =>
  typeof value === 'number' ? value : null;

export const poolOf = (view: PoolView): Pool => ({
  name: view.name,
  host: view.host,
  backend: view.backend,
  pool: view.pool,
  availabilityZone: view.availabilityZone,
  totalCapacityGb: known(view.state.totalCapacityGb),
  freeCapacityGb: known(view.state.freeCapacityGb),
  allocatedCapacityGb: view.state.allocatedCapacityGb,
  provisionedCapacityGb: view.state.provisionedCapacityGb,
  reportedAt: new Date(view.state.reportedAt).toISOString(),
});
