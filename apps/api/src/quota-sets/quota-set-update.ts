import { isQuotaResource, type QuotaResource } from '#hawser/domain';
import { toBoolean } from '#hawser/api-contracts';
import { badRequest } from '../http/manila-error.js';
import { atLeast, type Microversion } from '../http/request-context.js';

/** Keys Manila accepts in a quota set that are not quotas (api/v2/quota_sets.py). */
const NON_QUOTA_KEYS = new Set(['tenant_id', 'id', 'force', 'share_type']);

/** The first microversion that knows a key; a key used earlier is a 400. */
const SINCE: Partial<Record<QuotaResource, string>> = {
  share_groups: '2.40',
  share_group_snapshots: '2.40',
  share_replicas: '2.53',
  replica_gigabytes: '2.53',
  per_share_gigabytes: '2.62',
};

export interface QuotaSetUpdate {
  readonly limits: Partial<Record<QuotaResource, number>>;
  readonly force: boolean;
}

const integerOf = (key: string, value: unknown): number => {
  const parsed =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)
        ? Number(value)
        : NaN;
  if (!Number.isInteger(parsed)) throw badRequest(`Quota limit for ${key} must be an integer.`);
  return parsed;
};

/** Share type quotas count neither share networks nor share groups (quota_sets.py). */
const refuseShareTypeKeys = (body: Readonly<Record<string, unknown>>): void => {
  if (body.share_groups ?? body.share_group_snapshots) {
    throw badRequest('Share type quotas cannot constrain share groups and share group snapshots.');
  }
  if ('share_networks' in body) {
    throw badRequest(
      "'share_networks' quota cannot be set for share type. It can be set only for project or user.",
    );
  }
};

/** Manila's checks of a PUT body before the quota itself decides (reference 3.9). */
export const parseQuotaSetUpdate = (
  body: Readonly<Record<string, unknown>>,
  version: Microversion,
  forShareType = false,
): QuotaSetUpdate => {
  const entries = Object.entries(body);
  if (!entries.some(([key, value]) => isQuotaResource(key) && value !== null)) {
    throw badRequest('Must supply at least one quota field to update.');
  }
  if (forShareType) refuseShareTypeKeys(body);
  const bad = entries
    .map(([key]) => key)
    .filter((key) => !isQuotaResource(key) && !NON_QUOTA_KEYS.has(key));
  if (bad.length > 0) throw badRequest(`Bad key(s) in quota set: ${bad.join(',')}`);
  const limits: Partial<Record<QuotaResource, number>> = {};
  for (const [key, value] of entries) {
    // Manila leaves a key given as null as it is.
    if (!isQuotaResource(key) || value === null) continue;
    const since = SINCE[key];
    if (since && !atLeast(version, since)) {
      throw badRequest(
        `'${key}' key is not supported by this microversion. Use ${since} or greater ` +
          `microversion to be able to use '${key}' quotas.`,
      );
    }
    limits[key] = integerOf(key, value);
  }
  const rawForce = body.force;
  const force = rawForce === undefined ? false : toBoolean(rawForce);
  if (typeof force !== 'boolean') throw badRequest(`Invalid value for force: ${String(rawForce)}.`);
  return { limits, force };
};
