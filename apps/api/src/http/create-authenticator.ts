import type { HawserConfig } from '#hawser/platform';
import { NoAuthAuthenticator, type Authenticator } from './authenticator.js';
import { KeystoneAuthenticator } from './keystone/keystone-authenticator.js';

/** The authenticator HAWSER_AUTH names. */
export const createAuthenticator = (config: HawserConfig): Authenticator => {
  switch (config.auth) {
    case 'noauth':
      return new NoAuthAuthenticator();
    case 'keystone':
      if (!config.keystone)
        throw new Error('HAWSER_AUTH=keystone needs the HAWSER_KEYSTONE_* settings');
      return new KeystoneAuthenticator(config.keystone);
  }
};
