import type { ApolloDriverConfig } from '@nestjs/apollo';
import type { Request } from 'express';
import { parse, specifiedRules, validate, type ValidationRule } from 'graphql';
import type { Context as WsContext, ServerOptions } from 'graphql-ws';
import type { GraphQLWsSubscriptionsConfig } from '@nestjs/graphql';
import type { PolicyHolder } from '#hawser/policy';
import type { DocumentStore } from '#hawser/read-models';
import type { Authenticator } from '../http/authenticator.js';
import { contextOf, type AuthContext } from '../http/request-context.js';
import { requestPolicy } from '../policy/request-policy.js';
import { graphqlContext, type GraphqlContext } from './graphql-context.js';
import { maxComplexityRule } from './limits/query-complexity.rule.js';
import { maxDepthRule } from './limits/query-depth.rule.js';

export const GRAPHQL_PATH = '/graphql';
/** Deepest nesting of fields an operation may have (introspection aside). */
export const MAX_DEPTH = 8;
/** Highest estimated cost (fields times list sizes) an operation may have. */
export const MAX_COMPLEXITY = 20_000;

/**
 * Most tokens a document may hold. graphql-js parses nested lists and objects by recursion, a
 * token a level for a list, and about 2,000 levels overflow its stack; an introspection query
 * holds about 200 tokens, the console's largest about 100. Past the bound the parser stops with
 * a syntax error (HTTP 400), before any recursion gets that deep.
 */
export const MAX_TOKENS = 1_000;

export const queryLimitRules: readonly ValidationRule[] = [
  maxDepthRule(MAX_DEPTH),
  maxComplexityRule(MAX_COMPLEXITY),
];

/** What graphql-ws keeps per connection: the caller, authenticated once when it connects. */
interface ConnectionExtra {
  auth?: AuthContext;
}

/** The token of a subscription connection: `{"authToken": ...}` or `{"X-Auth-Token": ...}`. */
const tokenOf = (params: Readonly<Record<string, unknown>> | undefined): string | undefined => {
  const token = params?.authToken ?? params?.['X-Auth-Token'];
  return typeof token === 'string' ? token : undefined;
};

const isWsContext = (
  value: unknown,
): value is WsContext<Record<string, unknown>, ConnectionExtra> =>
  typeof value === 'object' && value !== null && 'connectionParams' in value;

/**
 * Apollo on the Express adapter with an in-memory code-first schema. HTTP requests arrive
 * authenticated by the REST pipeline (X-Auth-Token, 401 without); a subscription connection
 * passes its token in the connection parameters and is refused without a valid one.
 */
export const graphqlOptions = (
  authenticator: Authenticator,
  documents: DocumentStore,
  policy: PolicyHolder,
): ApolloDriverConfig => ({
  path: GRAPHQL_PATH,
  autoSchemaFile: true,
  // Nest's check runs the whole introspection query on every start; Apollo asserts the schema
  // valid when it starts anyway, and the GraphQL specs query it.
  buildSchemaOptions: { skipCheck: true },
  includeStacktraceInErrorResponses: false,
  // Field resolvers declare their policy rule too; their errors (a share's events) leave as
  // GraphQL errors with their status.
  fieldResolverEnhancers: ['guards', 'filters'],
  validationRules: [...queryLimitRules],
  parseOptions: { maxTokens: MAX_TOKENS },
  context: (arg: { req?: Request } | WsContext<Record<string, unknown>, ConnectionExtra>) => {
    const auth = isWsContext(arg) ? arg.extra.auth : arg.req && contextOf(arg.req).auth;
    // The pipeline refuses unauthenticated requests and onConnect such connections.
    if (!auth) throw new Error('GraphQL request without an authenticated caller');
    return graphqlContext(
      auth,
      requestPolicy(policy.current, auth),
      documents,
    ) satisfies GraphqlContext;
  },
  subscriptions: { 'graphql-ws': subscriptionOptions(authenticator) },
});

/**
 * graphql-ws on the same path. `parse` and `validate` are passed through to graphql-ws (Nest's
 * type lists only some of its options), so subscriptions obey the same limits as queries.
 */
const subscriptionOptions = (
  authenticator: Authenticator,
): GraphQLWsSubscriptionsConfig & Pick<ServerOptions, 'parse' | 'validate'> => ({
  path: GRAPHQL_PATH,
  onConnect: async (ctx: WsContext) => {
    const auth = await authenticator.authenticate(tokenOf(ctx.connectionParams));
    if (!auth) return false;
    (ctx.extra as ConnectionExtra).auth = auth;
    return true;
  },
  parse: (source) => parse(source, { maxTokens: MAX_TOKENS }),
  validate: (schema, document) =>
    validate(schema, document, [...specifiedRules, ...queryLimitRules]),
});
