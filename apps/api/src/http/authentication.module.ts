import { Module } from '@nestjs/common';
import { HAWSER_CONFIG, type HawserConfig } from '#hawser/platform';
import { AUTHENTICATOR } from './authenticator.js';
import { createAuthenticator } from './create-authenticator.js';

/**
 * The one authenticator of the process (HAWSER_AUTH): the HTTP pipeline and the GraphQL
 * subscription socket share it, and so its Keystone token cache.
 */
@Module({
  providers: [
    {
      provide: AUTHENTICATOR,
      useFactory: (config: HawserConfig) => createAuthenticator(config),
      inject: [HAWSER_CONFIG],
    },
  ],
  exports: [AUTHENTICATOR],
})
export class AuthenticationModule {}
