import { Field, ID, InputType, registerEnumType } from '@nestjs/graphql';

export enum ShareSortKey {
  CREATED_AT = 'created_at',
  UPDATED_AT = 'updated_at',
  NAME = 'name',
  SIZE = 'size',
  STATUS = 'status',
  ID = 'id',
  PROJECT_ID = 'project_id',
  AVAILABILITY_ZONE = 'availability_zone',
  SHARE_TYPE_ID = 'share_type_id',
}
registerEnumType(ShareSortKey, { name: 'ShareSortKey' });

export enum SortDirection {
  ASC = 'asc',
  DESC = 'desc',
}
registerEnumType(SortDirection, { name: 'SortDirection' });

@InputType('KeyValueInput')
export class KeyValueInput {
  @Field(() => String) key!: string;
  @Field(() => String) value!: string;
}

/** The filters of Manila's share listing (GET /shares/detail), under GraphQL names. */
@InputType('ShareFilter')
export class ShareFilter {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => String, { nullable: true, description: 'Names containing this text.' })
  nameContains?: string;
  @Field(() => String, { nullable: true }) description?: string;
  @Field(() => String, { nullable: true }) descriptionContains?: string;
  @Field(() => String, { nullable: true }) status?: string;
  @Field(() => ID, { nullable: true }) shareTypeId?: string;
  @Field(() => ID, { nullable: true }) snapshotId?: string;
  @Field(() => String, { nullable: true, description: 'Admin only; ignored for others.' })
  host?: string;
  @Field(() => String, { nullable: true }) exportLocationPath?: string;
  @Field(() => [KeyValueInput], { nullable: true, description: 'Every entry must match.' })
  metadata?: KeyValueInput[];
  @Field(() => Boolean, { nullable: true, description: "Also other projects' public shares." })
  includePublic?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Admin only: every project.' })
  allProjects?: boolean;
  @Field(() => ID, { nullable: true, description: 'Admin only, with allProjects.' })
  projectId?: string;
}

@InputType('ShareSort')
export class ShareSort {
  @Field(() => ShareSortKey) key!: ShareSortKey;
  @Field(() => SortDirection, { defaultValue: SortDirection.DESC }) direction!: SortDirection;
}

/** The query string Manila's listing takes for these filters (reference 3.4.2). */
export const manilaShareQuery = (
  filter: ShareFilter = {},
  sort: ShareSort | undefined,
): Record<string, string | undefined> => ({
  name: filter.name,
  'name~': filter.nameContains,
  description: filter.description,
  'description~': filter.descriptionContains,
  status: filter.status,
  share_type_id: filter.shareTypeId,
  snapshot_id: filter.snapshotId,
  host: filter.host,
  export_location_path: filter.exportLocationPath,
  metadata: filter.metadata
    ? JSON.stringify(Object.fromEntries(filter.metadata.map((e) => [e.key, e.value])))
    : undefined,
  is_public: filter.includePublic ? 'true' : undefined,
  all_tenants: filter.allProjects ? 'true' : undefined,
  project_id: filter.projectId,
  sort_key: sort?.key,
  sort_dir: sort?.direction,
});
