/**
 * GET /types?extra_specs= (2.43+, Manila's `get_all_types`): every given key must be set on the
 * type to the same text, except `availability_zones`, where the asked zones must all be among
 * the type's (a type without zones takes any).
 */
export const matchesExtraSpecs = (
  specs: Readonly<Record<string, string | boolean>>,
  wanted: Readonly<Record<string, string>>,
): boolean =>
  Object.entries(wanted).every(([key, value]) => {
    const own = Object.hasOwn(specs, key) ? specs[key] : undefined;
    if (key !== 'availability_zones') return own !== undefined && String(own) === value;
    if (own === undefined || own === '') return true;
    const zones = new Set(String(own).split(','));
    return value.split(',').every((zone) => zones.has(zone.trim()));
  });
