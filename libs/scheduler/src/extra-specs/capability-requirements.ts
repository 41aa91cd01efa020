import { matchCapability, parseRequirement, type ParsedRequirement } from './extra-spec-match.js';

/** Extra specs are string pairs, exactly as an administrator stored them on the share type. */
export type ExtraSpecs = Readonly<Record<string, string>>;

/** One extra spec the CapabilitiesFilter checks: the capability path and the requirement. */
export interface CapabilityRequirement {
  readonly key: string;
  readonly path: readonly string[];
  readonly requirement: ParsedRequirement;
  /** Outcomes by scalar capability value: pools share few distinct values. */
  readonly outcomes: Map<unknown, boolean>;
}

const MAX_CACHED_REQUIREMENTS = 4096;
const requirementCache = new Map<string, CapabilityRequirement>();

/** Parsed once per distinct (key, requirement) in this process. */
const requirementFor = (
  key: string,
  path: readonly string[],
  raw: string,
): CapabilityRequirement => {
  const cacheKey = `${key}\u0000${raw}`;
  let requirement = requirementCache.get(cacheKey);
  if (!requirement) {
    if (requirementCache.size >= MAX_CACHED_REQUIREMENTS) requirementCache.clear();
    requirement = { key, path, requirement: parseRequirement(raw), outcomes: new Map() };
    requirementCache.set(cacheKey, requirement);
  }
  return requirement;
};

const MAX_REMEMBERED_VALUES = 256;

/** Whether a present (non-null) capability value satisfies the requirement; remembers scalar outcomes. */
export const matchesValue = (requirement: CapabilityRequirement, value: unknown): boolean => {
  if (typeof value === 'object') return matchCapability(value, requirement.requirement);
  const known = requirement.outcomes.get(value);
  if (known !== undefined) return known;
  const outcome = matchCapability(value, requirement.requirement);
  if (requirement.outcomes.size < MAX_REMEMBERED_VALUES) requirement.outcomes.set(value, outcome);
  return outcome;
};

const IGNORED_KEYS = new Set(['availability_zones', 'capabilities:availability_zones']);

/**
 * The specs CapabilitiesFilter looks at (utils.capabilities_satisfied): all but the AZ list;
 * a scoped key counts only with the `capabilities` scope, which is stripped; the remaining
 * parts walk nested capability maps.
 */
export const capabilityRequirements = (specs: ExtraSpecs): CapabilityRequirement[] => {
  const requirements: CapabilityRequirement[] = [];
  for (const [key, raw] of Object.entries(specs)) {
    if (IGNORED_KEYS.has(key)) continue;
    const scope = key.split(':');
    if (scope.length > 1 && scope[0] !== 'capabilities') continue;
    if (scope[0] === 'capabilities') scope.shift();
    requirements.push(requirementFor(key, scope, raw));
  }
  return requirements;
};

const lookUp = (capabilities: unknown, path: readonly string[]): unknown => {
  let value = capabilities;
  for (const part of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    // Only what the pool reported: an inherited `constructor` or `toString` is no capability.
    if (!Object.hasOwn(value, part)) return null;
    value = (value as Record<string, unknown>)[part];
    if (value === null || value === undefined) return null;
  }
  return value;
};

/** True when the pool's as-reported capabilities satisfy one requirement (a missing or null capability fails). */
export const satisfiesRequirement = (
  capabilities: Readonly<Record<string, unknown>>,
  requirement: CapabilityRequirement,
): boolean => {
  const path = requirement.path;
  const value =
    path.length === 1 ? (capabilities[path[0] as string] ?? null) : lookUp(capabilities, path);
  return value !== null && matchesValue(requirement, value);
};

/** True when the pool's as-reported capabilities satisfy every requirement. */
export const satisfiesRequirements = (
  capabilities: Readonly<Record<string, unknown>>,
  requirements: readonly CapabilityRequirement[],
): boolean => requirements.every((requirement) => satisfiesRequirement(capabilities, requirement));

export const capabilitiesSatisfied = (
  capabilities: Readonly<Record<string, unknown>>,
  specs: ExtraSpecs,
): boolean => satisfiesRequirements(capabilities, capabilityRequirements(specs));
