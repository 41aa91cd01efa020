import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ApplicationModule } from '#hawser/application';
import { HAWSER_CONFIG, type HawserConfig } from '#hawser/platform';
import { APP_FILTER } from '@nestjs/core';
import { AuditController } from './admin/audit.controller.js';
import { ParkedEventsController } from './admin/parked-events.controller.js';
import { ProjectionsController } from './admin/projections.controller.js';
import { AvailabilityZonesController } from './availability-zones/availability-zones.controller.js';
import { PermissionsController } from './console/permissions.controller.js';
import { ExportLocationsController } from './export-locations/export-locations.controller.js';
import { GRAPHQL_PROVIDERS, GraphqlApiModule } from './graphql/graphql-api.module.js';
import { AuthenticationModule } from './http/authentication.module.js';
import { PolicyModule } from './policy/policy.module.js';
import { ManilaExceptionFilter } from './http/manila-exception.filter.js';
import { LimitsController } from './limits/limits.controller.js';
import { MessagesController } from './messages/messages.controller.js';
import { OpenApiController } from './openapi/openapi.controller.js';
import { HealthController } from './observability/health.controller.js';
import { MetricsController } from './observability/metrics.controller.js';
import { TerminusModule } from '@nestjs/terminus';
import {
  LegacyQuotaClassSetsController,
  QuotaClassSetsController,
} from './quota-sets/quota-class-sets.controller.js';
import {
  LegacyQuotaSetsController,
  QuotaSetsController,
} from './quota-sets/quota-sets.controller.js';
import { SchedulerStatsController } from './scheduler-stats/scheduler-stats.controller.js';
import { ServicesController } from './services/services.controller.js';
import { ShareInstanceActionsController } from './share-instances/share-instance-actions.controller.js';
import { ShareInstancesController } from './share-instances/share-instances.controller.js';
import { ShareReplicasController } from './share-replicas/share-replicas.controller.js';
import { ShareTypesController } from './share-types/share-types.controller.js';
import { AccessRuleMetadataController } from './share-access-rules/access-rule-metadata.controller.js';
import { ShareAccessRulesController } from './share-access-rules/share-access-rules.controller.js';
import { SharesController } from './shares/shares.controller.js';
import { ShareManageController } from './shares/share-manage.controller.js';
import { SnapshotInstancesController } from './snapshot-instances/snapshot-instances.controller.js';
import { MigrationHintsModule } from './shares/migration-hints.module.js';
import { SnapshotMetadataController } from './snapshots/snapshot-metadata.controller.js';
import { SnapshotsController } from './snapshots/snapshots.controller.js';
import { SnapshotManageController } from './snapshots/snapshot-manage.controller.js';
import { ExtensionsController } from './versions/extensions.controller.js';
import { VersionsController } from './versions/versions.controller.js';

/**
 * Manila's v2 REST API, Hawser's admin endpoints and the GraphQL read API, over the read
 * models and commands.
 */
@Module({
  imports: [
    CqrsModule.forRoot(),
    ApplicationModule.forRoot({
      useFactory: (config: HawserConfig) => config,
      inject: [HAWSER_CONFIG],
    }),
    MigrationHintsModule,
    AuthenticationModule,
    PolicyModule,
    GraphqlApiModule,
    TerminusModule.forRoot({ logger: false }),
  ],
  // Express walks the routes in this order for every request: the busiest come first.
  controllers: [
    SharesController,
    ShareReplicasController,
    VersionsController,
    HealthController,
    MetricsController,
    ExtensionsController,
    ShareTypesController,
    ShareManageController,
    SnapshotInstancesController,
    ExportLocationsController,
    SnapshotManageController,
    SnapshotsController,
    SnapshotMetadataController,
    ShareAccessRulesController,
    AccessRuleMetadataController,
    AvailabilityZonesController,
    AuditController,
    ProjectionsController,
    ParkedEventsController,
    PermissionsController,
    OpenApiController,
    QuotaSetsController,
    LegacyQuotaSetsController,
    QuotaClassSetsController,
    LegacyQuotaClassSetsController,
    LimitsController,
    MessagesController,
    SchedulerStatsController,
    ServicesController,
    ShareInstancesController,
    ShareInstanceActionsController,
  ],
  providers: [...GRAPHQL_PROVIDERS, { provide: APP_FILTER, useClass: ManilaExceptionFilter }],
})
export class ApiModule {}
