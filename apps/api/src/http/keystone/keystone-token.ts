import type { AuthContext } from '../request-context.js';
import { KeystoneUnavailableError } from './keystone-unavailable.error.js';

/** What Hawser keeps of a token Keystone has validated. */
export interface KeystoneToken {
  readonly userId: string;
  /** Undefined for unscoped, domain-scoped and system-scoped tokens. */
  readonly projectId: string | undefined;
  /** Role names, lower-cased as oslo.policy compares them. */
  readonly roles: readonly string[];
  readonly expiresAtMs: number;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

const malformed = (what: string) =>
  new KeystoneUnavailableError(`Keystone answered a token body without ${what}`);

/** Reads `{"token": {"user": {"id"}, "project": {"id"}, "roles": [{"name"}], "expires_at"}}`. */
export const parseTokenBody = (body: unknown): KeystoneToken => {
  const token = record(record(body)?.token);
  if (!token) throw malformed('a token');
  const userId = record(token.user)?.id;
  if (typeof userId !== 'string' || userId === '') throw malformed('a user id');
  const expiresAtMs = typeof token.expires_at === 'string' ? Date.parse(token.expires_at) : NaN;
  if (Number.isNaN(expiresAtMs)) throw malformed('a readable expires_at');
  const projectId = record(token.project)?.id;
  const roles = Array.isArray(token.roles) ? token.roles : [];
  return {
    userId,
    projectId: typeof projectId === 'string' && projectId !== '' ? projectId : undefined,
    roles: roles
      .map((role) => record(role)?.name)
      .filter((name): name is string => typeof name === 'string')
      .map((name) => name.toLowerCase()),
    expiresAtMs,
  };
};

/** The caller a project-scoped token names; undefined (401) for any other scope. */
export const authContextOf = (token: KeystoneToken): AuthContext | undefined =>
  token.projectId === undefined
    ? undefined
    : {
        userId: token.userId,
        projectId: token.projectId,
        roles: token.roles,
        isAdmin: token.roles.includes('admin'),
      };
