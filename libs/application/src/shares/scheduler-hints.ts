import {
  affinityMetadataOf,
  isAffinityKey,
  type AffinityHint,
  type SchedulerHints,
} from '#hawser/domain';
import { badRequest, forbiddenError } from '#hawser/api-contracts';
import { atLeast, type Requester } from '../requester.js';
import { UUID } from './share-reads.js';

/** The request's hint names and where they go. */
const HINT_NAMES: Readonly<Record<string, AffinityHint>> = {
  same_host: 'sameHost',
  different_host: 'differentHost',
};

/** What a share create records for its hints: the hints, and the metadata that lists them. */
export interface CreateHints {
  readonly schedulerHints: SchedulerHints | null;
  readonly metadata: Record<string, string>;
}

/**
 * `scheduler_hints` of share create (reference 7.1), checked before anything is written:
 * from 2.65 `same_host` / `different_host` (a comma-separated string of share ids, or a list
 * of them) and from 2.67 `only_host` (honoured for admins only, as OnlyHostFilter does). A
 * malformed id is a 400; a share the caller cannot see (unknown, or another project's private
 * share) is the 404 `findShare` throws. The hints are also returned as the new share's
 * `__affinity_*` metadata, which lists only the named shares the caller may write (its
 * project's, or any for an admin): those are linked back. A member's hint to another project's
 * public share guides the placement only and is linked neither way. Only admins may give those
 * keys themselves.
 */
export const createHintsOf = async (
  body: { scheduler_hints?: Record<string, unknown>; metadata?: Record<string, string> },
  requester: Requester,
  findShare: (id: string) => Promise<{ readonly project_id: string }>,
): Promise<CreateHints> => {
  const given = body.metadata ?? {};
  const { caller: auth, version } = requester;
  const mayGiveAdminKeys = requester.policy.allows('share:update_admin_only_metadata');
  if (!mayGiveAdminKeys && Object.keys(given).some(isAffinityKey)) {
    throw forbiddenError('Cannot set or update admin only metadata.');
  }
  const raw = body.scheduler_hints;
  if (!raw || !atLeast(version, '2.65')) return { schedulerHints: null, metadata: given };

  const hints: { -readonly [K in keyof SchedulerHints]: SchedulerHints[K] } = {};
  const linked: { -readonly [K in keyof SchedulerHints]: SchedulerHints[K] } = {};
  for (const [name, hint] of Object.entries(HINT_NAMES)) {
    if (!Object.hasOwn(raw, name)) continue;
    const ids = shareIdsOf(name, raw[name]);
    const writable: string[] = [];
    for (const id of ids) {
      const share = await findShare(id);
      if (auth.isAdmin || share.project_id === auth.projectId) writable.push(id);
    }
    if (ids.length > 0) hints[hint] = ids;
    if (writable.length > 0) linked[hint] = writable;
  }
  const onlyHost = Object.hasOwn(raw, 'only_host') ? raw.only_host : undefined;
  if (onlyHost !== undefined && onlyHost !== null && atLeast(version, '2.67')) {
    if (typeof onlyHost !== 'string') throw badRequest('only_host must be a pool host string.');
    if (auth.isAdmin && onlyHost !== '') hints.onlyHost = onlyHost;
  }
  if (Object.keys(hints).length === 0) return { schedulerHints: null, metadata: given };
  return { schedulerHints: hints, metadata: { ...given, ...affinityMetadataOf(linked) } };
};

/** The ids one hint lists, lower-cased, each once, in the order given; 400 for a malformed one. */
const shareIdsOf = (name: string, value: unknown): string[] => {
  const items =
    typeof value === 'string'
      ? value === ''
        ? []
        : value.split(',')
      : Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? (value as string[])
        : undefined;
  if (items === undefined) {
    throw badRequest(`Scheduler hint ${name} must be a share id or a list of share ids.`);
  }
  const ids = items.map((item) => item.trim());
  const malformed = ids.find((id) => !UUID.test(id));
  if (malformed !== undefined) throw badRequest(`${malformed} is not a valid uuid.`);
  return [...new Set(ids.map((id) => id.toLowerCase()))];
};
