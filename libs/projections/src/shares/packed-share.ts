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

/** The folded share a packed share and its listing fields stand for. */
export const unpackShare = (listing: ShareListing, packed: PackedShare): ActiveShare => {
  const { shareType, capabilities, instances, ...rest } = packed;
  return {
    ...SHARE_DEFAULTS,
    ...rest,
    kind: 'active',
    id: listing.id,
    projectId: listing.project_id,
    userId: listing.user_id,
    name: listing.name ?? null,
    description: listing.description ?? null,
    size: listing.size,
    shareProto: listing.share_proto,
    metadata: listing.metadata ?? {},
    isPublic: listing.is_public ?? false,
    snapshotId: listing.snapshot_id ?? null,
    createdAt: listing.created_at,
    shareType: shareType ? { id: listing.share_type_id as string, ...shareType } : null,
    capabilities: capabilities ? { ...CAPABILITY_DEFAULTS, ...capabilities } : null,
    instances: (instances ?? []).map((instance) => unpackInstance(instance, listing)),
  } as ActiveShare;
};

const unpackInstance = (packed: PackedInstance, listing: ShareListing): ShareInstanceState =>
  ({
    ...inherited(listing),
    ...INSTANCE_DEFAULTS,
    ...packed,
    exportLocations: (packed.exportLocations ?? []).map((location) => ({
      ...EXPORT_LOCATION_DEFAULTS,
      ...location,
    })),
  }) as ShareInstanceState;
