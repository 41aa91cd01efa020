import { Module } from '@nestjs/common';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { GraphQLModule } from '@nestjs/graphql';
import { DOCUMENT_STORE } from '#hawser/platform';
import type { PolicyHolder } from '#hawser/policy';
import type { DocumentStore } from '#hawser/read-models';
import { AuthenticationModule } from '../http/authentication.module.js';
import { AUTHENTICATOR, type Authenticator } from '../http/authenticator.js';
import { PolicyModule } from '../policy/policy.module.js';
import { POLICY_HOLDER } from '../policy/policy.tokens.js';
import { graphqlOptions } from './graphql-options.js';
import { CatalogueResolver } from './resolvers/catalogue.resolver.js';
import { ReplicasResolver } from './resolvers/replicas.resolver.js';
import { ShareChangesResolver } from './resolvers/share-changes.resolver.js';
import { SharesResolver } from './resolvers/shares.resolver.js';
import { ShareChangeFeed } from './subscriptions/share-change-feed.js';

/**
 * The resolvers of the GraphQL read API. They reuse the REST API's services, so the API module
 * provides them next to those.
 */
export const GRAPHQL_PROVIDERS = [
  ShareChangeFeed,
  SharesResolver,
  ReplicasResolver,
  CatalogueResolver,
  ShareChangesResolver,
];

/**
 * The GraphQL server at /graphql (queries over HTTP, subscriptions over graphql-ws on the
 * same path), with the REST API's authentication.
 */
@Module({
  imports: [
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      imports: [AuthenticationModule, PolicyModule],
      inject: [AUTHENTICATOR, DOCUMENT_STORE, POLICY_HOLDER],
      useFactory: (authenticator: Authenticator, documents: DocumentStore, policy: PolicyHolder) =>
        graphqlOptions(authenticator, documents, policy),
    }),
  ],
})
export class GraphqlApiModule {}
