import type { Request } from 'express';
import {
  ACCESS_RULES,
  MESSAGES,
  getShareInstance,
  SHARES,
  SNAPSHOTS,
  type AccessRuleDocument,
  type MessageDocument,
  type ShareRecord,
  type SnapshotDocument,
} from '#hawser/projections';
import type { DocumentStore } from '#hawser/read-models';
import { notFoundError, type ManilaHttpError } from '../http/manila-error.js';

/** The resource a rule is checked against, as the policy guard needs it. */
export interface ResourceTarget {
  readonly projectId: string;
  readonly userId?: string;
  /** Another project's public share is readable by all (Manila skips `share:get` for it). */
  readonly isPublic?: boolean;
  /**
   * The rule that says whether the caller may know the resource exists, and the 404 to answer
   * when it may not (no existence leak). Without it, a refusal is always the 403.
   */
  readonly visibility?: { readonly rule: string; readonly hidden: () => ManilaHttpError };
  /** The resource as it was read. */
  readonly document?: unknown;
}

/** Where a route's resource is: its kind (for the route inventory) and how to load it. */
export interface TargetSource {
  readonly kind: string;
  load(request: Request, documents: DocumentStore): Promise<ResourceTarget | undefined>;
}

/** Reads the resource id out of the request: a path parameter, a query or a body field. */
type IdOf = (request: Request) => unknown;

export const fromParam =
  (name: string): IdOf =>
  (request) =>
    request.params[name];

export const fromQuery =
  (name: string): IdOf =>
  (request) =>
    (request.query as Record<string, unknown>)[name];

export const fromBody =
  (key: string, field: string): IdOf =>
  (request) => {
    const part = (request.body as Record<string, unknown> | undefined)?.[key];
    return typeof part === 'object' && part !== null
      ? (part as Record<string, unknown>)[field]
      : undefined;
  };

/**
 * A resource found by id; an absent one (or a malformed id) is left to the handler, which
 * answers its own 404 or 400.
 */
const source =
  <T>(
    kind: string,
    find: (id: string, documents: DocumentStore) => Promise<T | undefined>,
    target: (doc: T, hidden: () => ManilaHttpError) => ResourceTarget,
    notFound: (id: string) => ManilaHttpError,
  ) =>
  /** `unknownAs`: the route's answer for a resource the caller may not see, when not the 404. */
  (idOf: IdOf, unknownAs: (id: string) => ManilaHttpError = notFound): TargetSource => ({
    kind,
    async load(request, documents) {
      const id = idOf(request);
      if (typeof id !== 'string' || id === '') return undefined;
      const doc = await find(id, documents);
      return doc === undefined ? undefined : { ...target(doc, () => unknownAs(id)), document: doc };
    },
  });

/** A share; other projects may read a public one (reads) but never change it. */
export const share = source(
  'share',
  (id, documents) => documents.get<ShareRecord>(SHARES, id),
  (doc, hidden) => ({
    projectId: doc.project_id,
    userId: doc.user_id,
    isPublic: doc.is_public,
    visibility: { rule: 'share:get', hidden },
  }),
  (id) => notFoundError(`Share ${id} could not be found.`),
);

export const snapshot = source(
  'snapshot',
  async (id, documents) => {
    const doc = await documents.get<SnapshotDocument>(SNAPSHOTS, id);
    return doc?.status === null ? undefined : doc;
  },
  (doc, hidden) => ({
    projectId: doc.project_id,
    userId: doc.user_id,
    visibility: { rule: 'share_snapshot:get_snapshot', hidden },
  }),
  (id) => notFoundError(`Snapshot ${id} could not be found.`),
);

export const replica = source(
  'share_replica',
  async (id, documents) => {
    const doc = await getShareInstance(documents, id);
    return doc?.replica_state === null ? undefined : doc;
  },
  (doc, hidden) => ({
    projectId: doc.project_id,
    visibility: { rule: 'share_replica:show', hidden },
  }),
  (id) => notFoundError(`Share replica ${id} could not be found.`),
);

export const shareInstance = source(
  'share_instance',
  (id, documents) => getShareInstance(documents, id),
  (doc, hidden) => ({
    projectId: doc.project_id,
    visibility: { rule: 'share_instance:show', hidden },
  }),
  (id) => notFoundError(`Share instance ${id} could not be found.`),
);

/** An access rule, judged by its share: readable where the share is, changed by its owners. */
export const accessRule = source(
  'share_access_rule',
  async (id, documents) => {
    const rule = await documents.get<AccessRuleDocument>(ACCESS_RULES, id);
    return rule && (await documents.get<ShareRecord>(SHARES, rule.share_id));
  },
  (share, hidden) => ({
    projectId: share.project_id,
    userId: share.user_id,
    isPublic: share.is_public,
    visibility: { rule: 'share:get', hidden },
  }),
  (id) => notFoundError(`Access rule ${id} could not be found.`),
);

export const message = source(
  'message',
  (id, documents) => documents.get<MessageDocument>(MESSAGES, id),
  (doc, hidden) => ({
    projectId: doc.project_id,
    visibility: { rule: 'message:get', hidden },
  }),
  (id) => notFoundError(`Message ${id} could not be found.`),
);

/** A project named in the path (quota sets): a refusal is a 403, projects are no secret. */
export const project = (idOf: IdOf): TargetSource => ({
  kind: 'project',
  load: async (request) => {
    const id = idOf(request);
    return typeof id === 'string' && id !== '' ? { projectId: id } : undefined;
  },
});
