import type { ResourceTarget } from './policy-targets.js';

/**
 * Where a GraphQL field's resource is: the parent object of a field resolver, or an argument.
 * Reads nothing; the resolvers already loaded what the field hangs off.
 */
export interface GraphqlTargetSource {
  readonly kind: string;
  of(parent: unknown, args: Readonly<Record<string, unknown>>): ResourceTarget | undefined;
}

const shareOf = (parent: unknown, readableWhenPublic: boolean): ResourceTarget | undefined => {
  const share = parent as { projectId?: unknown; isPublic?: unknown } | undefined;
  return typeof share?.projectId === 'string'
    ? { projectId: share.projectId, isPublic: readableWhenPublic && share.isPublic === true }
    : undefined;
};

/** The share a field hangs off (Share.replicas, Share.accessRules): public ones read by all. */
export const parentShare: GraphqlTargetSource = {
  kind: 'share',
  of: (parent) => shareOf(parent, true),
};

/** The share a field hangs off, for its own project even when public (Share.events). */
export const parentShareOwners: GraphqlTargetSource = {
  kind: 'share',
  of: (parent) => shareOf(parent, false),
};

/** A project named by an argument; absent, the rule is checked on the caller's own project. */
export const projectArgument = (name: string): GraphqlTargetSource => ({
  kind: 'project',
  of: (_parent, args) => {
    const project = args[name];
    return typeof project === 'string' && project !== '' ? { projectId: project } : undefined;
  },
});
