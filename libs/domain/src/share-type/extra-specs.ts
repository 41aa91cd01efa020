import { invalid } from '../shared/domain-error.js';

/** Extra specs are string key/value pairs, exactly as Manila stores them. */
export type ExtraSpecs = Readonly<Record<string, string>>;

export const REQUIRED_SPEC = 'driver_handles_share_servers';
export const BOOLEAN_CAPABILITY_SPECS = [
  'snapshot_support',
  'create_share_from_snapshot_support',
  'revert_to_snapshot_support',
  'mount_snapshot_support',
] as const;
export type BooleanCapabilitySpec = (typeof BOOLEAN_CAPABILITY_SPECS)[number];
export const REPLICATION_TYPES = ['writable', 'readable', 'dr'] as const;
export type ReplicationType = (typeof REPLICATION_TYPES)[number];

const KEY_PATTERN = /^[\w.\-:]+$/;
const TRUE_WORDS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'f', 'false', 'off', 'n', 'no']);

/** oslo's bool_from_string in strict mode: undefined when the text is not a boolean word. */
export const parseBoolean = (value: string): boolean | undefined => {
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
};

/** A boolean extra spec may be written `True` or `<is> True` (Manila's parse_boolean_extra_spec). */
export const parseBooleanSpec = (value: string): boolean | undefined => {
  const match = /^\s*(<is>\s*)?(\S+)\s*$/i.exec(value);
  return match ? parseBoolean(match[2] as string) : undefined;
};

/** Validates keys and the values of the standard specs; throws a 400-kind DomainError. */
export const validateExtraSpecs = (
  specs: ExtraSpecs,
  { requireDhss }: { requireDhss: boolean },
) => {
  if (requireDhss && !Object.hasOwn(specs, REQUIRED_SPEC)) {
    throw invalid(`Required extra specification ${REQUIRED_SPEC} is missing.`);
  }
  for (const [key, value] of Object.entries(specs)) {
    if (key.length < 1 || key.length > 255 || !KEY_PATTERN.test(key)) {
      throw invalid(`Invalid extra_spec key ${JSON.stringify(key)}.`);
    }
    if (typeof value !== 'string' || value.length < 1 || value.length > 255) {
      throw invalid(
        `Invalid extra_spec value for ${key}: must be a string of 1 to 255 characters.`,
      );
    }
    if (key === REQUIRED_SPEC && parseBoolean(value) === undefined) {
      throw invalid(`Invalid value "${value}" for ${REQUIRED_SPEC}: must be a boolean.`);
    }
    if ((BOOLEAN_CAPABILITY_SPECS as readonly string[]).includes(key)) {
      if (parseBooleanSpec(value) === undefined) {
        throw invalid(`Invalid boolean extra spec ${key} : ${value}`);
      }
    }
    if (key === 'replication_type' && !(REPLICATION_TYPES as readonly string[]).includes(value)) {
      throw invalid(`Invalid replication_type ${value}: must be one of writable, readable, dr.`);
    }
    if (key === 'availability_zones') {
      if (value.split(',').some((zone) => zone.trim() === '')) {
        throw invalid(`Invalid availability_zones extra spec: ${value}`);
      }
    }
    if (key === 'provisioning:max_share_size' || key === 'provisioning:min_share_size') {
      if (!/^\d+$/.test(value.trim()) || Number(value) < 1) {
        throw invalid(`Invalid ${key}: must be an integer of at least 1.`);
      }
    }
  }
};

/** Normalises what Manila normalises on save (whitespace in the AZ list). */
export const normaliseExtraSpecs = (specs: ExtraSpecs): ExtraSpecs => {
  const out: Record<string, string> = { ...specs };
  if (out.availability_zones !== undefined) {
    out.availability_zones = out.availability_zones
      .split(',')
      .map((zone) => zone.trim())
      .join(',');
  }
  return out;
};

/** The capability columns a share copies from its type at creation (default false / null). */
export interface ShareCapabilities {
  readonly snapshotSupport: boolean;
  readonly createShareFromSnapshotSupport: boolean;
  readonly revertToSnapshotSupport: boolean;
  readonly mountSnapshotSupport: boolean;
  readonly replicationType: ReplicationType | null;
}

export const capabilitiesOf = (specs: ExtraSpecs): ShareCapabilities => {
  const flag = (key: BooleanCapabilitySpec) =>
    specs[key] === undefined ? false : (parseBooleanSpec(specs[key]) ?? false);
  const replication = specs.replication_type;
  return {
    snapshotSupport: flag('snapshot_support'),
    createShareFromSnapshotSupport: flag('create_share_from_snapshot_support'),
    revertToSnapshotSupport: flag('revert_to_snapshot_support'),
    mountSnapshotSupport: flag('mount_snapshot_support'),
    replicationType: (REPLICATION_TYPES as readonly string[]).includes(replication ?? '')
      ? (replication as ReplicationType)
      : null,
  };
};
