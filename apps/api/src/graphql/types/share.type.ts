import { Extensions, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { affinityHintsOf } from '#hawser/domain';
import type { ShareDocument } from '#hawser/projections';
import type { AuthContext } from '../../http/request-context.js';
import { ExportLocation, exportLocationsOf } from './export-location.type.js';
import { entriesOf, KeyValue } from './key-value.type.js';

@ObjectType('Affinity', {
  description:
    "A share's affinity links: the shares it was placed with or apart from, and those that named it.",
})
export class Affinity {
  @Field(() => [ID]) sameHost!: string[];
  @Field(() => [ID]) differentHost!: string[];
}

/** From the `__affinity_*` metadata the links are kept in; null when there are none. */
const affinityOf = (metadata: Readonly<Record<string, string>>): Affinity | null => {
  const hints = affinityHintsOf(metadata);
  return hints
    ? { sameHost: [...(hints.sameHost ?? [])], differentHost: [...(hints.differentHost ?? [])] }
    : null;
};

@ObjectType('Share', {
  description:
    'A share as the read models show it; replicas, snapshots, access rules and events are read on demand, batched per request.',
})
export class Share {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => ID) projectId!: string;
  @Field(() => ID) userId!: string;
  @Field(() => Int, { description: 'GiB' }) size!: number;
  @Field(() => String) shareProto!: string;
  @Field(() => String) status!: string;
  @Field(() => String, { nullable: true, description: 'Creation progress, e.g. "40%".' })
  progress!: string | null;
  @Field(() => String, {
    nullable: true,
    description: "Manila's task_state: a migration's step (migration_starting, ...), else null.",
  })
  taskState!: string | null;
  @Field(() => Boolean) isPublic!: boolean;
  @Field(() => String, { nullable: true }) availabilityZone!: string | null;
  @Field(() => ID, { nullable: true }) shareTypeId!: string | null;
  @Field(() => String, { nullable: true }) shareTypeName!: string | null;
  @Field(() => ID, { nullable: true }) snapshotId!: string | null;
  @Field(() => String) accessRulesStatus!: string;
  @Field(() => String, { nullable: true }) replicationType!: string | null;
  @Field(() => Boolean) hasReplicas!: boolean;
  @Field(() => [KeyValue])
  @Extensions({ listSize: 5 })
  metadata!: KeyValue[];
  @Field(() => [ExportLocation])
  @Extensions({ listSize: 3 })
  exportLocations!: ExportLocation[];
  @Field(() => Affinity, { nullable: true, description: 'null when it has no affinity links.' })
  affinity!: Affinity | null;
  @Field(() => String, { nullable: true, description: 'Admin only: null for other callers.' })
  host!: string | null;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

/** The caller's view of a share: admin-only fields are null for others, as REST omits them. */
export const shareOf = (doc: ShareDocument, auth: AuthContext): Share => ({
  id: doc.id,
  name: doc.name,
  description: doc.description,
  projectId: doc.project_id,
  userId: doc.user_id,
  size: doc.size,
  shareProto: doc.share_proto,
  status: doc.status,
  progress: doc.progress,
  taskState: doc.task_state,
  isPublic: doc.is_public,
  availabilityZone: doc.availability_zone,
  shareTypeId: doc.share_type_id,
  shareTypeName: doc.share_type_name,
  snapshotId: doc.snapshot_id,
  accessRulesStatus: doc.access_rules_status,
  replicationType: doc.replication_type,
  hasReplicas: doc.has_replicas,
  metadata: entriesOf(doc.metadata),
  exportLocations: exportLocationsOf(doc.export_locations, auth),
  affinity: affinityOf(doc.metadata),
  host: auth.isAdmin ? doc.host : null,
  createdAt: doc.created_at,
  updatedAt: doc.updated_at,
});

@ObjectType('PageInfo')
export class PageInfo {
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page.' })
  endCursor!: string | null;
  @Field(() => Boolean) hasNextPage!: boolean;
}

@ObjectType('ShareConnection')
export class ShareConnection {
  // Sized by the `first` of the field that returns the connection.
  @Field(() => [Share])
  @Extensions({ listSize: 1 })
  nodes!: Share[];
  @Field(() => Int, { description: 'Matching shares over all pages.' }) totalCount!: number;
  @Field(() => PageInfo) pageInfo!: PageInfo;
}
