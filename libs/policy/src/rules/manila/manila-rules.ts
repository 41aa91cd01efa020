import type { RuleDefinition } from '../rule-definition.js';
import { BASE_RULES } from './base.rules.js';
import { AVAILABILITY_ZONE_RULES } from './availability-zone.rules.js';
import { SCHEDULER_STATS_RULES } from './scheduler-stats.rules.js';
import { SHARE_RULES } from './shares.rules.js';
import { SHARE_INSTANCE_EXPORT_LOCATION_RULES } from './share-instance-export-location.rules.js';
import { SHARE_TYPE_RULES } from './share-type.rules.js';
import { SHARE_TYPES_EXTRA_SPEC_RULES } from './share-types-extra-spec.rules.js';
import { SHARE_SNAPSHOT_RULES } from './share-snapshot.rules.js';
import { SHARE_SNAPSHOT_EXPORT_LOCATION_RULES } from './share-snapshot-export-location.rules.js';
import { SHARE_SNAPSHOT_INSTANCE_RULES } from './share-snapshot-instance.rules.js';
import { SHARE_SNAPSHOT_INSTANCE_EXPORT_LOCATION_RULES } from './share-snapshot-instance-export-location.rules.js';
import { SERVICE_RULES } from './service.rules.js';
import { QUOTA_SET_RULES } from './quota-set.rules.js';
import { QUOTA_CLASS_SET_RULES } from './quota-class-set.rules.js';
import { SHARE_REPLICA_RULES } from './share-replica.rules.js';
import { SHARE_REPLICA_EXPORT_LOCATION_RULES } from './share-replica-export-location.rules.js';
import { SHARE_EXPORT_LOCATION_RULES } from './share-export-location.rules.js';
import { SHARE_INSTANCE_RULES } from './share-instance.rules.js';
import { MESSAGE_RULES } from './message.rules.js';
import { SHARE_ACCESS_RULES } from './share-access.rules.js';
import { SHARE_ACCESS_METADATA_RULES } from './share-access-metadata.rules.js';

/**
 * Every rule of Manila 15.1's manila/policies/*.py for the resources Hawser serves, in Manila's
 * order, with Manila's names, descriptions and operations. Share groups, share networks,
 * security services and share servers are left out until Hawser serves them.
 */
export const MANILA_RULES: readonly RuleDefinition[] = [
  ...BASE_RULES,
  ...AVAILABILITY_ZONE_RULES,
  ...SCHEDULER_STATS_RULES,
  ...SHARE_RULES,
  ...SHARE_INSTANCE_EXPORT_LOCATION_RULES,
  ...SHARE_TYPE_RULES,
  ...SHARE_TYPES_EXTRA_SPEC_RULES,
  ...SHARE_SNAPSHOT_RULES,
  ...SHARE_SNAPSHOT_EXPORT_LOCATION_RULES,
  ...SHARE_SNAPSHOT_INSTANCE_RULES,
  ...SHARE_SNAPSHOT_INSTANCE_EXPORT_LOCATION_RULES,
  ...SERVICE_RULES,
  ...QUOTA_SET_RULES,
  ...QUOTA_CLASS_SET_RULES,
  ...SHARE_REPLICA_RULES,
  ...SHARE_REPLICA_EXPORT_LOCATION_RULES,
  ...SHARE_EXPORT_LOCATION_RULES,
  ...SHARE_INSTANCE_RULES,
  ...MESSAGE_RULES,
  ...SHARE_ACCESS_RULES,
  ...SHARE_ACCESS_METADATA_RULES,
];
