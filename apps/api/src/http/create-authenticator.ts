import type { HawserConfig } from '#hawser/platform';
import { NoAuthAuthenticator, type Authenticator } from './authenticator.js';

/** The authenticator HAWSER_AUTH names. */
export const createAuthenticator = (config: HawserConfig): Authenticator => {
  switch (config.auth) {
    case 'noauth':
      return new NoAuthAuthenticator();
    case 'keystone':
      throw new Error('HAWSER_AUTH=keystone: the Keystone authenticator is not built yet');
  }
};
