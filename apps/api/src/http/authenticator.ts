import type { AuthContext } from './request-context.js';

/** Turns a request's token into who is calling; undefined means 401. */
export interface Authenticator {
  authenticate(token: string | undefined): Promise<AuthContext | undefined>;
}

export const AUTHENTICATOR = Symbol('AUTHENTICATOR');

const DEFAULT_NOAUTH_ROLES = ['admin', 'member', 'reader'];

/**
 * Manila's `noauth` strategy, made explicit: the token `user:project` names the caller, with no
 * password. As in Manila, such a caller is an admin. Hawser adds an optional third part,
 * `user:project:member,reader`, to act as a non-admin (policy tests, demos of isolation).
 */
export class NoAuthAuthenticator implements Authenticator {
  async authenticate(token: string | undefined): Promise<AuthContext | undefined> {
    if (!token) return undefined;
    const [userId, projectId, roleList] = token.split(':');
    if (!userId || !projectId) return undefined;
    const roles = roleList
      ? roleList
          .split(',')
          .map((r) => r.trim().toLowerCase())
          .filter(Boolean)
      : DEFAULT_NOAUTH_ROLES;
    return { userId, projectId, roles, isAdmin: roles.includes('admin') };
  }
}
