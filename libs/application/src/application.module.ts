import { Module, type DynamicModule, type FactoryProvider } from '@nestjs/common';
import { QuotaDefaults } from './quotas/quota-defaults.js';
import { QuotaReservations } from './quotas/quota-reservations.js';
import { ShareTypeReads } from './share-types/share-type-reads.js';
import {
  DeleteShareHandler,
  ResetShareStatusHandler,
  SetShareMetadataHandler,
  UnsetShareMetadataHandler,
  UpdateShareHandler,
} from './shares/change-share.js';
import {
  CreateShareFromSnapshotHandler,
  CreateShareHandler,
  ShareCreation,
} from './shares/create-share.js';
import { ExtendShareHandler, ShareResize, ShrinkShareHandler } from './shares/resize-share.js';
import { RevertShareHandler } from './shares/revert-share.js';
import {
  ListSnapshotInstancesHandler,
  ResetSnapshotInstanceStatusHandler,
  ShowSnapshotInstanceHandler,
} from './snapshots/snapshot-instances.js';
import { ManageShareHandler, UnmanageShareHandler } from './shares/manage-share.js';
import { ManageSnapshotHandler, UnmanageSnapshotHandler } from './snapshots/manage-snapshot.js';
import {
  AllowSnapshotAccessHandler,
  DenySnapshotAccessHandler,
  ListSnapshotAccessHandler,
  ListSnapshotExportLocationsHandler,
} from './snapshots/snapshot-access.js';
import {
  AllowAccessHandler,
  DenyAccessHandler,
  SetAccessRuleMetadataHandler,
  UnsetAccessRuleMetadataHandler,
} from './shares/share-access.js';
import { ShareChanges } from './shares/share-changes.js';
import { RestoreShareHandler, SoftDeleteShareHandler } from './shares/recycle-bin.js';
import { ChangeServiceStatusHandler } from './services/backend-services.js';
import {
  ForceDeleteShareInstanceHandler,
  ResetShareInstanceStatusHandler,
} from './shares/share-instance-actions.js';
import {
  ListAccessRulesHandler,
  ShowAccessRuleHandler,
  ShowShareHandler,
} from './shares/share-queries.js';
import { ShareReads } from './shares/share-reads.js';
import { ShareDocuments } from './shares/share-documents.js';
import { SnapshotSources } from './shares/snapshot-source.js';
import {
  DeleteSnapshotHandler,
  ResetSnapshotStatusHandler,
  SetSnapshotMetadataHandler,
  UnsetSnapshotMetadataHandler,
  UpdateSnapshotHandler,
} from './snapshots/change-snapshot.js';
import { CreateSnapshotHandler } from './snapshots/create-snapshot.js';
import { ShowSnapshotHandler } from './snapshots/snapshot-queries.js';
import { SnapshotReads } from './snapshots/snapshot-reads.js';
import { CreateReplicaHandler } from './replicas/create-replica.js';
import {
  DeleteReplicaHandler,
  PromoteReplicaHandler,
  ResetReplicaStateHandler,
  ResetReplicaStatusHandler,
  ResyncReplicaHandler,
} from './replicas/replica-changes.js';
import { ListReplicasHandler, ShowReplicaHandler } from './replicas/replica-queries.js';
import { ReplicaDocuments } from './replicas/replica-documents.js';
import { ReplicaReads } from './replicas/replica-reads.js';
import {
  ChangeShareTypeAccessHandler,
  CreateShareTypeHandler,
  DeleteShareTypeHandler,
  SetShareTypeExtraSpecsHandler,
  ShareTypeChanges,
  UnsetShareTypeExtraSpecHandler,
  UpdateShareTypeHandler,
} from './share-types/share-type-commands.js';
import {
  ListShareTypesHandler,
  ShowDefaultShareTypeHandler,
  ShowShareTypeHandler,
} from './share-types/share-type-queries.js';
import {
  ResetQuotaLimitsHandler,
  SetQuotaClassLimitsHandler,
  SetQuotaLimitsHandler,
} from './quotas/quota-limits.js';
import {
  ShowQuotaClassHandler,
  ShowQuotaDefaultsHandler,
  ShowQuotaHandler,
} from './quotas/quota-queries.js';
import { ListMessagesHandler } from './messages/list-messages.js';
import {
  DeleteMessageHandler,
  MessageReads,
  ShowMessageHandler,
} from './messages/message-use-cases.js';
import { ListSharesHandler } from './shares/list-shares.js';
import { MIGRATION_HANDLERS } from './migration/migrate-share.js';
import { ListSnapshotsHandler } from './snapshots/list-snapshots.js';
import { USE_CASE_SETTINGS, type UseCaseSettings } from './use-case-settings.js';

/** The steps several use cases share: lookups, the share's command runner, the quota step. */
const STEPS = [
  { provide: ShareDocuments, useFactory: () => new ShareDocuments() },
  { provide: ReplicaDocuments, useFactory: () => new ReplicaDocuments() },
  ShareReads,
  ShareChanges,
  ShareCreation,
  ShareResize,
  SnapshotSources,
  SnapshotReads,
  ReplicaReads,
  ShareTypeReads,
  ShareTypeChanges,
  QuotaReservations,
  QuotaDefaults,
  MessageReads,
];

const SHARE_HANDLERS = [
  CreateShareHandler,
  CreateShareFromSnapshotHandler,
  UpdateShareHandler,
  DeleteShareHandler,
  ResetShareStatusHandler,
  SetShareMetadataHandler,
  UnsetShareMetadataHandler,
  ExtendShareHandler,
  ShrinkShareHandler,
  RevertShareHandler,
  ListSnapshotInstancesHandler,
  ShowSnapshotInstanceHandler,
  ResetSnapshotInstanceStatusHandler,
  ManageShareHandler,
  UnmanageShareHandler,
  AllowAccessHandler,
  DenyAccessHandler,
  SetAccessRuleMetadataHandler,
  UnsetAccessRuleMetadataHandler,
  ResetShareInstanceStatusHandler,
  ForceDeleteShareInstanceHandler,
  ShowShareHandler,
  ListAccessRulesHandler,
  ShowAccessRuleHandler,
  SoftDeleteShareHandler,
  RestoreShareHandler,
];

const SNAPSHOT_HANDLERS = [
  ManageSnapshotHandler,
  UnmanageSnapshotHandler,
  AllowSnapshotAccessHandler,
  DenySnapshotAccessHandler,
  ListSnapshotAccessHandler,
  ListSnapshotExportLocationsHandler,
  CreateSnapshotHandler,
  UpdateSnapshotHandler,
  DeleteSnapshotHandler,
  ResetSnapshotStatusHandler,
  SetSnapshotMetadataHandler,
  UnsetSnapshotMetadataHandler,
  ShowSnapshotHandler,
];

const REPLICA_HANDLERS = [
  CreateReplicaHandler,
  DeleteReplicaHandler,
  PromoteReplicaHandler,
  ResyncReplicaHandler,
  ResetReplicaStatusHandler,
  ResetReplicaStateHandler,
  ShowReplicaHandler,
  ListReplicasHandler,
];

const SHARE_TYPE_HANDLERS = [
  CreateShareTypeHandler,
  UpdateShareTypeHandler,
  DeleteShareTypeHandler,
  ChangeShareTypeAccessHandler,
  SetShareTypeExtraSpecsHandler,
  UnsetShareTypeExtraSpecHandler,
  ShowShareTypeHandler,
  ShowDefaultShareTypeHandler,
  ListShareTypesHandler,
];

const QUOTA_HANDLERS = [
  SetQuotaLimitsHandler,
  ResetQuotaLimitsHandler,
  ShowQuotaHandler,
  ShowQuotaDefaultsHandler,
  SetQuotaClassLimitsHandler,
  ShowQuotaClassHandler,
];

const SERVICE_HANDLERS = [ChangeServiceStatusHandler];

const LISTING_AND_MESSAGE_HANDLERS = [
  ListSharesHandler,
  ListSnapshotsHandler,
  ListMessagesHandler,
  ShowMessageHandler,
  DeleteMessageHandler,
];

/**
 * Every use case's handler, found by @nestjs/cqrs's CqrsModule (imported once by the process
 * that hosts the API) and reached through its CommandBus and QueryBus. The command handler, the
 * document store and read-your-writes come from the process's persistence and projections
 * modules; the settings from its configuration.
 */
@Module({})
export class ApplicationModule {
  static forRoot(settings: Omit<FactoryProvider<UseCaseSettings>, 'provide'>): DynamicModule {
    return {
      module: ApplicationModule,
      providers: [
        { provide: USE_CASE_SETTINGS, ...settings },
        ...STEPS,
        ...SHARE_HANDLERS,
        ...SNAPSHOT_HANDLERS,
        ...REPLICA_HANDLERS,
        ...SHARE_TYPE_HANDLERS,
        ...QUOTA_HANDLERS,
        ...SERVICE_HANDLERS,
        ...LISTING_AND_MESSAGE_HANDLERS,
        ...MIGRATION_HANDLERS,
      ],
    };
  }
}
