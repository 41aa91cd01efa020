import type { QueryBus } from '@nestjs/cqrs';
import { ShowShareType, type Reader } from '#hawser/application';
import type { QuotaScope } from '#hawser/domain';
import { badRequest, ManilaHttpError, notFoundError } from '../http/manila-error.js';
import { atLeast, type Microversion } from '../http/request-context.js';

/** The query parameters that narrow a quota set to a user or a share type. */
export interface QuotaScopeQuery {
  readonly user_id?: string;
  readonly share_type?: string;
}

/** Before 2.39 a share type's quotas do not exist (quota_sets.py). */
export const refuseShareTypeBefore239 = (query: QuotaScopeQuery, version: Microversion): void => {
  if (query.share_type && !atLeast(version, '2.39')) {
    throw badRequest(
      "'share_type' key is not supported by this microversion. Use 2.39 or greater microversion " +
        "to be able to use 'share_type' quotas.",
    );
  }
};

const refuseBoth = (query: QuotaScopeQuery): void => {
  if (query.user_id && query.share_type) {
    throw badRequest("'user_id' and 'share_type' values are mutually exclusive");
  }
};

/**
 * The scope a request names, in Manila's order of checks: a share type named by name or id must
 * exist (404), and a user and a type together are a 400.
 */
export const quotaScopeOf = async (
  query: QuotaScopeQuery,
  queries: QueryBus,
  reader: Reader,
): Promise<QuotaScope> => {
  refuseBoth(query);
  if (query.user_id) return { kind: 'user', userId: query.user_id };
  if (!query.share_type) return { kind: 'project' };
  const name = query.share_type;
  const type = await queries.execute(new ShowShareType(name, reader)).catch((error: unknown) => {
    if (error instanceof ManilaHttpError && error.status === 404) {
      throw notFoundError(`Share type with name or id '${name}' not found.`);
    }
    throw error;
  });
  return { kind: 'share_type', shareTypeId: type.id };
};
