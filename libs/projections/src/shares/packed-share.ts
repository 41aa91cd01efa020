import type {
  ActiveShare,
  ExportLocation,
  ShareCapabilities,
  ShareInstanceState,
} from '#hawser/domain';

/**
 * What a share record keeps of the folded share beside its listing fields: none of the fields
 * the listing already holds (id, project, name, size, times...), and no field at its default
 * (null, false, an empty list). `unpackShare` puts both back, so readers and the fold see the
 * domain's `ActiveShare`, field for field. Optional fields of the state are kept as they are.
 */
export interface PackedShare {
  readonly shareType?: { readonly name: string; readonly extraSpecs: Record<string, string> };
  readonly capabilities?: Partial<ShareCapabilities>;
  readonly instances?: readonly PackedInstance[];
  readonly [field: string]: unknown;
}

type PackedInstance = Partial<ShareInstanceState> & {
  readonly exportLocations?: readonly Partial<ExportLocation>[];
};

/** The listing fields a packed share is completed from (missing ones read as null). */
export interface ShareListing {
  readonly id: string;
  readonly name?: string | null;
  readonly description?: string | null;
  readonly project_id: string;
  readonly user_id: string;
  readonly size: number;
  readonly share_proto: string;
  readonly share_type_id?: string | null;
  readonly is_public?: boolean;
  readonly metadata?: Record<string, string>;
  readonly snapshot_id?: string | null;
  readonly status: string;
  readonly host: string;
  readonly availability_zone?: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The state's fields the listing holds under its own names. */
const LISTED = [
  'kind',
  'id',
  'projectId',
  'userId',
  'name',
  'description',
  'size',
  'shareProto',
  'metadata',
  'isPublic',
  'snapshotId',
  'createdAt',
] as const;

const SHARE_DEFAULTS = {
  shareType: null,
  capabilities: null,
  requestedAvailabilityZone: null,
  schedulerHints: null,
  // Optional in the type for states stored long ago; the fold always sets it.
  snapshotSource: null,
  instances: [],
  snapshots: [],
  accessRules: [],
  pendingResize: null,
} as const;

const CAPABILITY_DEFAULTS = {
  snapshotSupport: false,
  createShareFromSnapshotSupport: false,
  revertToSnapshotSupport: false,
  mountSnapshotSupport: false,
  replicationType: null,
} as const satisfies ShareCapabilities;

const INSTANCE_DEFAULTS = {
  replicaState: null,
  progress: null,
  exportLocations: [],
  pendingOperation: null,
} as const;

const EXPORT_LOCATION_DEFAULTS = { preferred: false, isAdminOnly: false } as const;

type Defaults = Readonly<Record<string, null | false | readonly never[]>>;

const isDefault = (value: unknown, fallback: unknown): boolean =>
  value === fallback ||
  (Array.isArray(value) && Array.isArray(fallback) && value.length === 0 && fallback.length === 0);

/** The object without the fields that hold their default (or are named in `also`). */
const withoutDefaults = (
  value: object,
  defaults: Defaults,
  also: readonly string[] = [],
): Record<string, unknown> => {
  const kept: Record<string, unknown> = {};
  for (const [field, held] of Object.entries(value)) {
    if (also.includes(field)) continue;
    if (Object.hasOwn(defaults, field) && isDefault(held, defaults[field])) continue;
    kept[field] = held;
  }
  return kept;
};

export const packShare = (state: ActiveShare, listing: ShareListing): PackedShare => {
  const packed = withoutDefaults(state, SHARE_DEFAULTS, LISTED);
  if (state.shareType) {
    // Its id is the listing's share_type_id.
    packed.shareType = { name: state.shareType.name, extraSpecs: state.shareType.extraSpecs };
  }
  if (state.capabilities) {
    // Present (even empty) means capabilities were resolved; absent means null.
    packed.capabilities = withoutDefaults(state.capabilities, CAPABILITY_DEFAULTS);
  }
  if (state.instances.length > 0) {
    packed.instances = state.instances.map((instance) => packInstance(instance, listing));
  }
  return packed;
};

/** The instance's fields the listing shows for the share, under the listing's names. */
const inherited = (listing: ShareListing) => ({
  status: listing.status,
  host: listing.host,
  availabilityZone: listing.availability_zone ?? null,
  createdAt: listing.created_at,
  updatedAt: listing.updated_at,
});

const packInstance = (instance: ShareInstanceState, listing: ShareListing): PackedInstance => {
  // What equals the listing's (the shown instance's status, host and zone, the share's creation
  // and latest update) is read back from it.
  const also = Object.entries(inherited(listing))
    .filter(([field, value]) => instance[field as keyof ShareInstanceState] === value)
    .map(([field]) => field);
  const packed = withoutDefaults(instance, INSTANCE_DEFAULTS, also);
  if (instance.exportLocations.length > 0) {
    packed.exportLocations = instance.exportLocations.map((location) =>
      withoutDefaults(location, EXPORT_LOCATION_DEFAULTS),
    );
  }
  return packed;
};

/** The packed fields the unpacked share takes in its fixed order (the rest are its optional ones). */
const UNPACKED_IN_ORDER = new Set<string>([
  'shareType',
  'capabilities',
  'instances',
  ...Object.keys(SHARE_DEFAULTS),
]);

/**
 * The folded share a packed share and its listing fields stand for. Every read of a record
 * unpacks it (a page of 1,000 shares unpacks 1,000), so the object is built in one literal of a
 * fixed shape, without spreads or an object rest, which V8 copies field by field in its slow
 * path; only the state's optional fields a share has are added after it.
 */
export const unpackShare = (listing: ShareListing, packed: PackedShare): ActiveShare => {
  const share: Record<string, unknown> = {
    kind: 'active',
    id: listing.id,
    projectId: listing.project_id,
    userId: listing.user_id,
    name: listing.name ?? null,
    description: listing.description ?? null,
    size: listing.size,
    shareProto: listing.share_proto,
    shareType: packed.shareType
      ? { id: listing.share_type_id as string, ...packed.shareType }
      : null,
    capabilities: packed.capabilities ? unpackCapabilities(packed.capabilities) : null,
    requestedAvailabilityZone: packed.requestedAvailabilityZone ?? null,
    metadata: listing.metadata ?? {},
    isPublic: listing.is_public ?? false,
    snapshotId: listing.snapshot_id ?? null,
    snapshotSource: packed.snapshotSource ?? null,
    schedulerHints: packed.schedulerHints ?? null,
    createdAt: listing.created_at,
    instances: packed.instances ? unpackInstances(packed.instances, listing) : [],
    snapshots: packed.snapshots ?? [],
    accessRules: packed.accessRules ?? [],
    pendingResize: packed.pendingResize ?? null,
  };
  for (const field in packed) {
    if (!UNPACKED_IN_ORDER.has(field)) share[field] = packed[field];
  }
  return share as unknown as ActiveShare;
};

const unpackCapabilities = (packed: Partial<ShareCapabilities>): ShareCapabilities => ({
  snapshotSupport: packed.snapshotSupport ?? false,
  createShareFromSnapshotSupport: packed.createShareFromSnapshotSupport ?? false,
  revertToSnapshotSupport: packed.revertToSnapshotSupport ?? false,
  mountSnapshotSupport: packed.mountSnapshotSupport ?? false,
  replicationType: packed.replicationType ?? null,
});

const unpackInstances = (
  packed: readonly PackedInstance[],
  listing: ShareListing,
): ShareInstanceState[] => {
  const instances: ShareInstanceState[] = [];
  for (const instance of packed) instances.push(unpackInstance(instance, listing));
  return instances;
};

/** The instance's fields in the order `newShareInstance` gives them; optional ones after. */
const INSTANCE_IN_ORDER = new Set<string>([
  'id',
  'status',
  'host',
  'availabilityZone',
  'replicaState',
  'progress',
  'exportLocations',
  'pendingOperation',
  'createdAt',
  'updatedAt',
]);

const unpackInstance = (packed: PackedInstance, listing: ShareListing): ShareInstanceState => {
  const instance: Record<string, unknown> = {
    id: packed.id,
    status: packed.status ?? listing.status,
    host: packed.host ?? listing.host,
    availabilityZone:
      packed.availabilityZone !== undefined
        ? packed.availabilityZone
        : (listing.availability_zone ?? null),
    replicaState: packed.replicaState ?? null,
    progress: packed.progress ?? null,
    exportLocations: packed.exportLocations ? unpackLocations(packed.exportLocations) : [],
    pendingOperation: packed.pendingOperation ?? null,
    createdAt: packed.createdAt ?? listing.created_at,
    updatedAt: packed.updatedAt ?? listing.updated_at,
  };
  for (const field in packed) {
    if (!INSTANCE_IN_ORDER.has(field)) instance[field] = packed[field as keyof PackedInstance];
  }
  return instance as unknown as ShareInstanceState;
};

const unpackLocations = (packed: readonly Partial<ExportLocation>[]): ExportLocation[] => {
  const locations: ExportLocation[] = [];
  for (const location of packed) {
    locations.push({
      id: location.id as string,
      path: location.path as string,
      preferred: location.preferred ?? false,
      isAdminOnly: location.isAdminOnly ?? false,
    });
  }
  return locations;
};
