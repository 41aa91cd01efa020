import { Field, ID, ObjectType } from '@nestjs/graphql';
import type { ExportLocationDocument } from '#hawser/projections';
import type { AuthContext } from '../../http/request-context.js';

@ObjectType('ExportLocation', { description: 'Where a share or replica is mounted from.' })
export class ExportLocation {
  @Field(() => ID) id!: string;
  @Field(() => String) path!: string;
  @Field(() => Boolean) preferred!: boolean;
  @Field(() => ID, { nullable: true, description: 'Admin only: null for other callers.' })
  shareInstanceId!: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Admin only: null for other callers.' })
  isAdminOnly!: boolean | null;
}

/** As the REST API: admin-only locations and the instance fields are shown to admins only. */
export const exportLocationsOf = (
  locations: readonly ExportLocationDocument[],
  auth: AuthContext,
): ExportLocation[] =>
  locations
    .filter((l) => auth.isAdmin || !l.is_admin_only)
    .map((l) => ({
      id: l.id,
      path: l.path,
      preferred: l.preferred,
      shareInstanceId: auth.isAdmin ? l.share_instance_id : null,
      isAdminOnly: auth.isAdmin ? l.is_admin_only : null,
    }));
