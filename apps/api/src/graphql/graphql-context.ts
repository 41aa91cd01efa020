import type { ViewContext } from '#hawser/api-contracts';
import type { Reader } from '#hawser/application';
import type { DocumentStore } from '#hawser/read-models';
import { MAX_VERSION } from '../http/microversion.js';
import type { AuthContext, Microversion } from '../http/request-context.js';
import type { RequestPolicy } from '../policy/request-policy.js';
import { ReadModelLoaders } from './read-model.loaders.js';

/** What every resolver of one GraphQL operation knows: the caller and the batched reads. */
export interface GraphqlContext {
  readonly auth: AuthContext;
  /** The caller's policy, as it stood when the operation started. */
  readonly policy: RequestPolicy;
  readonly loaders: ReadModelLoaders;
}

export const graphqlContext = (
  auth: AuthContext,
  policy: RequestPolicy,
  documents: DocumentStore,
): GraphqlContext => ({
  auth,
  policy,
  loaders: new ReadModelLoaders(documents),
});

/** GraphQL answers as the newest Manila microversion does; it has no versions of its own. */
export const LATEST: Microversion = {
  major: 2,
  minor: Number(MAX_VERSION.split('.')[1]),
  text: MAX_VERSION,
  experimental: false,
};

/** The caller as a use case's query reads it. */
export const graphqlReader = (ctx: GraphqlContext): Reader => ({
  caller: ctx.auth,
  version: LATEST,
});

export const viewContextFor = (auth: AuthContext): ViewContext => ({
  version: [LATEST.major, LATEST.minor],
  isAdmin: auth.isAdmin,
  baseUrl: '',
  urlProjectId: undefined,
});
