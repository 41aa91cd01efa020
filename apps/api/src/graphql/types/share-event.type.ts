import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import type { RecordedEvent } from '#hawser/eventstore';
import type { AuthContext } from '../../http/request-context.js';
import { auditView } from '../../admin/audit.controller.js';

@ObjectType('ShareEvent', {
  description: 'One event of a share: who did what, when, caused by what.',
})
export class ShareEvent {
  @Field(() => Float, { description: 'Position in the global log.' }) position!: number;
  @Field(() => Int, { description: 'Revision within the share stream.' }) revision!: number;
  @Field(() => ID) id!: string;
  @Field(() => String) type!: string;
  @Field(() => Int) schemaVersion!: number;
  @Field(() => String) recordedAt!: string;
  @Field(() => ID, { nullable: true }) userId!: string | null;
  @Field(() => ID, { nullable: true }) projectId!: string | null;
  @Field(() => String, { nullable: true }) requestId!: string | null;
  @Field(() => ID, { nullable: true }) commandId!: string | null;
  @Field(() => ID, { nullable: true }) correlationId!: string | null;
  @Field(() => ID, { nullable: true, description: 'The event or command that caused this one.' })
  causationId!: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The event's data as JSON text. Admin only: null for other callers.",
  })
  data!: string | null;
}

/** The audit trail's view of an event, for GraphQL; the raw data (hosts, paths) is admin only. */
export const shareEventOf = (event: RecordedEvent, auth: AuthContext): ShareEvent => {
  const view = auditView(event);
  return {
    position: view.position,
    revision: view.revision,
    id: view.id,
    type: view.type,
    schemaVersion: view.schema_version,
    recordedAt: view.recorded_at,
    userId: view.user_id,
    projectId: view.project_id,
    requestId: view.request_id,
    commandId: view.command_id,
    correlationId: view.correlation_id,
    causationId: view.causation_id,
    data: auth.isAdmin ? JSON.stringify(view.data) : null,
  };
};
