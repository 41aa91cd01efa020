/** Who is calling: what the API layer knows of the caller after authentication. */
export interface Credentials {
  readonly userId: string;
  readonly projectId: string;
  readonly roles: readonly string[];
  readonly isAdmin: boolean;
}

/**
 * The attributes of the resource acted on, as `%(field)s` substitutions see them (for a create:
 * the caller's project). A field that is absent, `undefined` or `null` matches nothing.
 */
export type PolicyTarget = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** Keystone's default role implications, in the order they chain. */
const IMPLIED_ROLES: readonly (readonly [role: string, implies: string])[] = [
  ['admin', 'member'],
  ['member', 'reader'],
];

/**
 * The roles plus those Keystone's default implied roles add (admin implies member implies
 * reader). A Keystone token already lists them; credentials built another way (noauth) expand
 * theirs with this so that a member also passes `role:reader` checks.
 */
export const withImpliedRoles = (roles: readonly string[]): string[] => {
  const held = new Set(roles.map((role) => role.toLowerCase()));
  const expanded = [...roles];
  for (const [role, implies] of IMPLIED_ROLES) {
    if (held.has(role) && !held.has(implies)) {
      held.add(implies);
      expanded.push(implies);
    }
  }
  return expanded;
};
