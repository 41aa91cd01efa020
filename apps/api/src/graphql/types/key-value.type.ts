import { Field, ObjectType } from '@nestjs/graphql';

/** One entry of a string map (share metadata, share type extra specs). */
@ObjectType('KeyValue')
export class KeyValue {
  @Field(() => String) key!: string;
  @Field(() => String) value!: string;
}

export const entriesOf = (map: Readonly<Record<string, unknown>>): KeyValue[] =>
  Object.entries(map).map(([key, value]) => ({ key, value: String(value) }));
