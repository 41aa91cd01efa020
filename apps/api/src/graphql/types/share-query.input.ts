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
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true, description: 'Names containing this text.' })
  nameContains?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) descriptionContains?: string | null;
  @Field(() => String, { nullable: true }) status?: string | null;
  @Field(() => ID, { nullable: true }) shareTypeId?: string | null;
  @Field(() => ID, { nullable: true }) snapshotId?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Admins only (share:list_by_host); ignored for others.',
  })
  host?: string | null;
  @Field(() => String, { nullable: true }) exportLocationPath?: string | null;
  @Field(() => [KeyValueInput], { nullable: true, description: 'Every entry must match.' })
  metadata?: KeyValueInput[] | null;
  @Field(() => Boolean, { nullable: true, description: "Also other projects' public shares." })
  includePublic?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Admin only: every project.' })
  allProjects?: boolean | null;
  @Field(() => ID, { nullable: true, description: 'Admin only, with allProjects.' })
  projectId?: string | null;
}

@InputType('ShareSort')
export class ShareSort {
  @Field(() => ShareSortKey) key!: ShareSortKey;
  @Field(() => SortDirection, { defaultValue: SortDirection.DESC }) direction!: SortDirection;
}

/**
 * The query string Manila's listing takes for these filters (reference 3.4.2). An argument or
 * input field given as `null` comes as null, not undefined: it means the same as left out.
 */
export const manilaShareQuery = (
  filter: ShareFilter | null | undefined,
  sort: ShareSort | null | undefined,
): Record<string, string | undefined> => {
  const given = filter ?? {};
  return {
    name: given.name ?? undefined,
    'name~': given.nameContains ?? undefined,
    description: given.description ?? undefined,
    'description~': given.descriptionContains ?? undefined,
    status: given.status ?? undefined,
    share_type_id: given.shareTypeId ?? undefined,
    snapshot_id: given.snapshotId ?? undefined,
    host: given.host ?? undefined,
    export_location_path: given.exportLocationPath ?? undefined,
    metadata: given.metadata
      ? JSON.stringify(Object.fromEntries(given.metadata.map((e) => [e.key, e.value])))
      : undefined,
    is_public: given.includePublic ? 'true' : undefined,
    all_tenants: given.allProjects ? 'true' : undefined,
    project_id: given.projectId ?? undefined,
    sort_key: sort?.key,
    sort_dir: sort?.direction,
  };
};
