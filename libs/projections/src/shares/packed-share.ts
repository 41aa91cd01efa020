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
 *
 * The parts every share has are stored under one-letter keys (`PACKED_KEYS`), and an export
 * location's path that ends as the first one's does keeps only what differs: a record then fits
 * six to a 4 KB page rather than four. A record written before holds the same under the
 * state's own names (`LONG_KEYS`); both read through the same code.
 */
export interface PackedShare {
  readonly [field: string]: unknown;
}

type PackedInstance = Readonly<Record<string, unknown>>;
type PackedLocation = Readonly<Record<string, unknown>>;

/** The keys a packed share's common parts are stored under. */
interface PackedKeys {
  readonly shareType: string;
  readonly typeName: string;
  readonly extraSpecs: string;
  readonly capabilities: string;
  readonly instances: string;
  readonly progress: string;
  readonly exportLocations: string;
  readonly path: string;
  readonly preferred: string;
  readonly isAdminOnly: string;
}

/** How records are packed now. */
const PACKED_KEYS = {
  shareType: 't',
  typeName: 'n',
  extraSpecs: 'x',
  capabilities: 'c',
  instances: 'i',
  progress: 'g',
  exportLocations: 'e',
  path: 'p',
  preferred: 'f',
  isAdminOnly: 'a',
} as const satisfies PackedKeys;
/** A location's key for how many characters of the first location's path end its own. */
const TAIL = 's';

/** How records were packed before, under the state's own names. */
export const LONG_KEYS = {
  shareType: 'shareType',
  typeName: 'name',
  extraSpecs: 'extraSpecs',
  capabilities: 'capabilities',
  instances: 'instances',
  progress: 'progress',
  exportLocations: 'exportLocations',
  path: 'path',
  preferred: 'preferred',
  isAdminOnly: 'isAdminOnly',
} as const satisfies PackedKeys;

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

type Defaults = Readonly<Record<string, null | false | readonly never[]>>;

const isDefault = (value: unknown, fallback: unknown): boolean =>
  value === fallback ||
  (Array.isArray(value) && Array.isArray(fallback) && value.length === 0 && fallback.length === 0);

/** Whether a field is left out of the packed object whatever it holds. */
type Skipped = (field: string, held: unknown) => boolean;

/**
 * The object without the fields that hold their default (or that `skipped` leaves out). Every
 * projected event of a share packs its record, so no pairs of `Object.entries` nor lists of the
 * fields to leave out are made on the way.
 */
const withoutDefaults = (
  value: object,
  defaults: Defaults,
  skipped: Skipped = () => false,
): Record<string, unknown> => {
  const kept: Record<string, unknown> = {};
  const fields = value as Readonly<Record<string, unknown>>;
  for (const field of Object.keys(fields)) {
    const held = fields[field];
    if (skipped(field, held)) continue;
    if (Object.hasOwn(defaults, field) && isDefault(held, defaults[field])) continue;
    kept[field] = held;
  }
  return kept;
};

/** The share's fields the listing holds, or that are packed apart under `PACKED_KEYS`. */
const SHARE_PACKED_APART: ReadonlySet<string> = new Set([
  ...LISTED,
  'shareType',
  'capabilities',
  'instances',
]);
const isPackedApart: Skipped = (field) => SHARE_PACKED_APART.has(field);

/** The instance's fields packed apart under `PACKED_KEYS`. */
const INSTANCE_PACKED_APART: ReadonlySet<string> = new Set(['progress', 'exportLocations']);

export const packShare = (state: ActiveShare, listing: ShareListing): PackedShare => {
  const keys = PACKED_KEYS;
  const packed = withoutDefaults(state, SHARE_DEFAULTS, isPackedApart);
  if (state.shareType) {
    // Its id is the listing's share_type_id.
    packed[keys.shareType] = {
      [keys.typeName]: state.shareType.name,
      [keys.extraSpecs]: state.shareType.extraSpecs,
    };
  }
  if (state.capabilities) {
    // Present (even empty) means capabilities were resolved; absent means null.
    packed[keys.capabilities] = withoutDefaults(state.capabilities, CAPABILITY_DEFAULTS);
  }
  if (state.instances.length > 0) {
    packed[keys.instances] = state.instances.map((instance) => packInstance(instance, listing));
  }
  return packed;
};

/** The instance's fields the listing shows for the share, under the listing's names. */
const inherited = (listing: ShareListing): Readonly<Record<string, unknown>> => ({
  status: listing.status,
  host: listing.host,
  availabilityZone: listing.availability_zone ?? null,
  createdAt: listing.created_at,
  updatedAt: listing.updated_at,
});

const packInstance = (instance: ShareInstanceState, listing: ShareListing): PackedInstance => {
  const keys = PACKED_KEYS;
  // What equals the listing's (the shown instance's status, host and zone, the share's creation
  // and latest update) is read back from it.
  const shown = inherited(listing);
  const packed = withoutDefaults(
    instance,
    INSTANCE_DEFAULTS,
    (field, held) =>
      INSTANCE_PACKED_APART.has(field) || (Object.hasOwn(shown, field) && shown[field] === held),
  );
  if (instance.progress !== null) packed[keys.progress] = instance.progress;
  const [first] = instance.exportLocations;
  if (first) {
    packed[keys.exportLocations] = instance.exportLocations.map((location, index) =>
      packLocation(location, index === 0 ? undefined : first.path),
    );
  }
  return packed;
};

const packLocation = (location: ExportLocation, firstPath: string | undefined): PackedLocation => {
  const keys = PACKED_KEYS;
  const tail = firstPath === undefined ? 0 : sharedEnd(location.path, firstPath);
  return {
    id: location.id,
    [keys.path]: tail === 0 ? location.path : location.path.slice(0, -tail),
    ...(tail > 0 && { [TAIL]: tail }),
    ...(location.preferred && { [keys.preferred]: true }),
    ...(location.isAdminOnly && { [keys.isAdminOnly]: true }),
  };
};

/** How many characters two strings end with in common (one NFS path on several addresses). */
const sharedEnd = (a: string, b: string): number => {
  let shared = 0;
  while (shared < a.length && shared < b.length && a.at(-1 - shared) === b.at(-1 - shared)) {
    shared++;
  }
  return shared;
};

/**
 * The folded share a packed share and its listing fields stand for, its common parts under
 * `keys` (`PACKED_KEYS` or, written before, `LONG_KEYS`). Every read of a record unpacks it (a
 * page of 1,000 shares unpacks 1,000), so the object is built in one literal of a fixed shape,
 * without spreads or an object rest, which V8 copies field by field in its slow path; only the
 * state's optional fields a share has are added after it.
 */
export const unpackShare = (
  listing: ShareListing,
  packed: PackedShare,
  keys: PackedKeys = PACKED_KEYS,
): ActiveShare => {
  const shareType = packed[keys.shareType] as Record<string, unknown> | undefined;
  const capabilities = packed[keys.capabilities] as Partial<ShareCapabilities> | undefined;
  const instances = packed[keys.instances] as readonly PackedInstance[] | undefined;
  const share: Record<string, unknown> = {
    kind: 'active',
    id: listing.id,
    projectId: listing.project_id,
    userId: listing.user_id,
    name: listing.name ?? null,
    description: listing.description ?? null,
    size: listing.size,
    shareProto: listing.share_proto,
    shareType: shareType
      ? {
          id: listing.share_type_id as string,
          name: shareType[keys.typeName],
          extraSpecs: shareType[keys.extraSpecs],
        }
      : null,
    capabilities: capabilities ? unpackCapabilities(capabilities) : null,
    requestedAvailabilityZone: packed.requestedAvailabilityZone ?? null,
    metadata: listing.metadata ?? {},
    isPublic: listing.is_public ?? false,
    snapshotId: listing.snapshot_id ?? null,
    snapshotSource: packed.snapshotSource ?? null,
    schedulerHints: packed.schedulerHints ?? null,
    createdAt: listing.created_at,
    instances: instances ? unpackInstances(instances, listing, keys) : [],
    snapshots: packed.snapshots ?? [],
    accessRules: packed.accessRules ?? [],
    pendingResize: packed.pendingResize ?? null,
  };
  for (const field in packed) {
    if (!(field in share) && !isCommonKey(field, keys)) share[field] = packed[field];
  }
  return share as unknown as ActiveShare;
};

const isCommonKey = (field: string, keys: PackedKeys): boolean =>
  field === keys.shareType || field === keys.capabilities || field === keys.instances;

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
  keys: PackedKeys,
): ShareInstanceState[] => {
  const instances: ShareInstanceState[] = [];
  for (const instance of packed) instances.push(unpackInstance(instance, listing, keys));
  return instances;
};

const unpackInstance = (
  packed: PackedInstance,
  listing: ShareListing,
  keys: PackedKeys,
): ShareInstanceState => {
  const locations = packed[keys.exportLocations] as readonly PackedLocation[] | undefined;
  const instance: Record<string, unknown> = {
    id: packed.id,
    status: packed.status ?? listing.status,
    host: packed.host ?? listing.host,
    availabilityZone:
      packed.availabilityZone !== undefined
        ? packed.availabilityZone
        : (listing.availability_zone ?? null),
    replicaState: packed.replicaState ?? null,
    progress: packed[keys.progress] ?? null,
    exportLocations: locations ? unpackLocations(locations, keys) : [],
    pendingOperation: packed.pendingOperation ?? null,
    createdAt: packed.createdAt ?? listing.created_at,
    updatedAt: packed.updatedAt ?? listing.updated_at,
  };
  for (const field in packed) {
    if (!(field in instance) && field !== keys.progress && field !== keys.exportLocations) {
      instance[field] = packed[field];
    }
  }
  return instance as unknown as ShareInstanceState;
};

const unpackLocations = (packed: readonly PackedLocation[], keys: PackedKeys): ExportLocation[] => {
  const locations: ExportLocation[] = [];
  for (const location of packed) {
    const path = location[keys.path] as string;
    const tail = (location[TAIL] as number | undefined) ?? 0;
    locations.push({
      id: location.id as string,
      path: tail > 0 ? path + (locations[0]?.path ?? '').slice(-tail) : path,
      preferred: (location[keys.preferred] as boolean | undefined) ?? false,
      isAdminOnly: (location[keys.isAdminOnly] as boolean | undefined) ?? false,
    });
  }
  return locations;
};
