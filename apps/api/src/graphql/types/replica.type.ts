import { Extensions, Field, ID, ObjectType } from '@nestjs/graphql';
import type { ShareInstanceDocument } from '#hawser/projections';
import type { AuthContext } from '../../http/request-context.js';
import { ExportLocation, exportLocationsOf } from './export-location.type.js';

@ObjectType('Replica', {
  description:
    'One instance of a share: its only one, or one of its replicas (replicaState says which).',
})
export class Replica {
  @Field(() => ID) id!: string;
  @Field(() => ID) shareId!: string;
  @Field(() => String) status!: string;
  @Field(() => String, { nullable: true, description: 'active, in_sync, out_of_sync, error' })
  replicaState!: string | null;
  @Field(() => String, { nullable: true }) progress!: string | null;
  @Field(() => String, { nullable: true }) availabilityZone!: string | null;
  @Field(() => String, { nullable: true, description: 'Admin only: null for other callers.' })
  host!: string | null;
  @Field(() => String) accessRulesStatus!: string;
  @Field(() => [ExportLocation])
  @Extensions({ listSize: 3 })
  exportLocations!: ExportLocation[];
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

export const replicaOf = (doc: ShareInstanceDocument, auth: AuthContext): Replica => ({
  id: doc.id,
  shareId: doc.share_id,
  status: doc.status,
  replicaState: doc.replica_state,
  progress: doc.progress,
  availabilityZone: doc.availability_zone,
  host: auth.isAdmin ? doc.host : null,
  accessRulesStatus: doc.access_rules_status,
  exportLocations: exportLocationsOf(doc.export_locations, auth),
  createdAt: doc.created_at,
  updatedAt: doc.updated_at,
});
