import { matchCapability, parseRequirement, type ParsedRequirement } from './extra-spec-match.js';

/** Extra specs are string pairs, exactly as an administrator stored them on the share type. */
export type ExtraSpecs = Readonly<Record<string, string>>;

/** One extra spec the CapabilitiesFilter checks: the capability path and the requirement. */
export interface CapabilityRequirement {
  readonly key: string;
  readonly path: readonly string[];
  readonly requirement: ParsedRequirement;
}

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
    requirements.push({ key, path: scope, requirement: parseRequirement(raw) });
  }
  return requirements;
};

const lookUp = (capabilities: unknown, path: readonly string[]): unknown => {
  let value = capabilities;
  for (const part of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[part];
    if (value === null || value === undefined) return null;
  }
  return value;
};

/** True when the pool's as-reported capabilities satisfy every requirement. */
export const satisfiesRequirements = (
  capabilities: Readonly<Record<string, unknown>>,
  requirements: readonly CapabilityRequirement[],
): boolean => {
  for (const { path, requirement } of requirements) {
    const value = lookUp(capabilities, path);
    if (value === null) return false;
    if (!matchCapability(value, requirement)) return false;
  }
  return true;
};

export const capabilitiesSatisfied = (
  capabilities: Readonly<Record<string, unknown>>,
  specs: ExtraSpecs,
): boolean => satisfiesRequirements(capabilities, capabilityRequirements(specs));
