import type { CapabilityRequirement, ExtraSpecs } from '../extra-specs/capability-requirements.js';
import { matchRequirement, parseRequirement } from '../extra-specs/extra-spec-match.js';
import { strictBoolFromString } from '../extra-specs/bool-from-string.js';
import { ReserveKind, type PoolColumns } from '../pool-state/pool-columns.js';
import type { PoolStateRegistry } from '../pool-state/pool-state-registry.js';
import type { SchedulingRequest } from './scheduling-request.js';
import { requirementsView, ShareTypeViews } from './share-type-view.js';

/** Standard specs Manila rewrites to `<is> value` before matching. */
const BOOLEAN_SPECS = [
  'driver_handles_share_servers',
  'snapshot_support',
  'create_share_from_snapshot_support',
  'revert_to_snapshot_support',
  'mount_snapshot_support',
];

/** What every filter and weigher of one decision shares, computed once per request. */
export interface SchedulingContext {
  readonly registry: PoolStateRegistry;
  readonly columns: PoolColumns;
  readonly request: SchedulingRequest;
  readonly now: number;
  /** The request's copy of the extra specs after Manila's rewriting (`extra.*`). */
  readonly extraSpecs: ExtraSpecs;
  readonly requirements: readonly CapabilityRequirement[];
  /** Identifies the requirement set, for caches. */
  readonly requirementsKey: string;
  readonly useThinLogic: boolean;
  /** Replication domain of the active replica's or snapshot's pool (null if unknown). */
  readonly replicationDomain: string | null;
  /** Which reserved percentage applies: a clone's snapshot one, an extend's, or the share's. */
  readonly reserveKind: ReserveKind;
  /** Reserved fraction per pool for this kind of request (snapshot, extend or plain). */
  readonly reservedFraction: Float64Array;
}

/** Manila's _format_filter_properties: the rewritten specs (reference 6.2 step 1). */
export const rewriteExtraSpecs = (request: SchedulingRequest): Record<string, string> => {
  const specs: Record<string, string> = { ...request.shareType.extraSpecs };
  if (Object.keys(specs).length > 0) {
    for (const name of BOOLEAN_SPECS) {
      const value = specs[name];
      if (value !== undefined && !value.startsWith('<is>')) specs[name] = `<is> ${value}`;
    }
  }
  if (specs['storage_protocol'] === undefined && request.shareProto !== null) {
    specs['storage_protocol'] = `<in> ${request.shareProto}`;
  }
  if (request.activeReplicaHost || request.snapshot?.host) delete specs['share_backend_name'];
  return specs;
};

/** utils.use_thin_logic: no spec -> thin logic; a strict boolean decides; else `<is> True`-like passes. */
export const useThinLogic = (specs: ExtraSpecs): boolean => {
  const spec = specs['thin_provisioning'] ?? specs['capabilities:thin_provisioning'];
  if (spec === undefined) return true;
  const parsed = strictBoolFromString(spec);
  if (parsed !== undefined) return parsed;
  return matchRequirement(true, parseRequirement(spec));
};

/** The replication_domain of the first live pool (enumeration order) that is the active replica's or snapshot's. */
const sourceReplicationDomain = (
  registry: PoolStateRegistry,
  request: SchedulingRequest,
): string | null => {
  const hosts = [request.activeReplicaHost, request.snapshot?.host].filter(
    (host): host is string => !!host,
  );
  let first: number | undefined;
  for (const host of hosts) {
    const index = registry.poolIndex(host);
    if (index !== undefined && registry.isLive(index) && (first === undefined || index < first))
      first = index;
  }
  return first === undefined ? null : (registry.columns.replicationDomain[first] ?? null);
};

const views = new ShareTypeViews((request) => {
  const extraSpecs = rewriteExtraSpecs(request);
  return requirementsView(extraSpecs, useThinLogic(extraSpecs));
});

export const schedulingContext = (
  registry: PoolStateRegistry,
  request: SchedulingRequest,
  now: number,
): SchedulingContext => {
  const view = views.of(request);
  const columns = registry.columns;
  const reserveKind = request.snapshotId
    ? ReserveKind.Snapshot
    : request.isShareExtend
      ? ReserveKind.Extend
      : ReserveKind.Share;
  return {
    registry,
    columns,
    request,
    now,
    extraSpecs: view.extraSpecs,
    requirements: view.requirements,
    requirementsKey: view.requirementsKey,
    useThinLogic: view.useThinLogic,
    replicationDomain:
      request.activeReplicaHost || request.snapshot
        ? sourceReplicationDomain(registry, request)
        : null,
    reserveKind,
    reservedFraction: [
      columns.reservedFraction,
      columns.reservedSnapshotFraction,
      columns.reservedExtendFraction,
    ][reserveKind] as Float64Array,
  };
};
