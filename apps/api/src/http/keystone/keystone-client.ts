import type { KeystoneConfig } from '#hawser/platform';
import { parseTokenBody, type KeystoneToken } from './keystone-token.js';
import { KeystoneUnavailableError } from './keystone-unavailable.error.js';

export type Fetch = typeof fetch;

export interface ServiceToken {
  readonly token: string;
  readonly expiresAtMs: number;
}

export type Validation =
  | { readonly outcome: 'valid'; readonly token: KeystoneToken }
  /** Unknown, expired or revoked (Keystone's 404), or malformed (400). */
  | { readonly outcome: 'invalid' }
  /** Keystone no longer accepts the service token (401): issue a new one. */
  | { readonly outcome: 'service-token-rejected' };

const messageOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'message' in error
    ? String(error.message)
    : undefined;

/**
 * fetch reports "fetch failed" and keeps the useful part (ECONNREFUSED, ...) in its cause.
 * Duck-typed: errors from Node's own fetch may come from another realm than `Error`.
 */
const reasonOf = (error: unknown): string => {
  const message = messageOf(error) ?? String(error);
  const cause = messageOf((error as { cause?: unknown } | undefined)?.cause);
  return cause ? `${message} (${cause})` : message;
};

/** The two Identity v3 calls keystonemiddleware's auth_token makes, and nothing else. */
export class KeystoneClient {
  constructor(
    private readonly config: KeystoneConfig,
    private readonly fetch: Fetch,
    private readonly timeoutMs: number,
  ) {}

  /** POST /v3/auth/tokens with the service user's password, scoped to its project. */
  async issueServiceToken(): Promise<ServiceToken> {
    const { username, password, userDomain, project, projectDomain } = this.config;
    const response = await this.call('/auth/tokens?nocatalog', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        auth: {
          identity: {
            methods: ['password'],
            password: { user: { name: username, domain: { name: userDomain }, password } },
          },
          scope: { project: { name: project, domain: { name: projectDomain } } },
        },
      }),
    });
    if (response.status !== 201) {
      throw new KeystoneUnavailableError(
        `Keystone refused the service user ${username} (HTTP ${response.status})`,
      );
    }
    const token = response.headers.get('X-Subject-Token');
    if (!token) throw new KeystoneUnavailableError('Keystone issued no X-Subject-Token');
    return { token, expiresAtMs: parseTokenBody(await this.json(response)).expiresAtMs };
  }

  /** GET /v3/auth/tokens: the subject token's user, scope, roles and expiry. */
  async validate(serviceToken: string, subjectToken: string): Promise<Validation> {
    const response = await this.call('/auth/tokens?nocatalog', {
      method: 'GET',
      headers: { 'X-Auth-Token': serviceToken, 'X-Subject-Token': subjectToken },
    });
    switch (response.status) {
      case 200:
        return { outcome: 'valid', token: parseTokenBody(await this.json(response)) };
      case 400:
      case 404:
        await response.body?.cancel();
        return { outcome: 'invalid' };
      case 401:
        await response.body?.cancel();
        return { outcome: 'service-token-rejected' };
      default:
        await response.body?.cancel();
        throw new KeystoneUnavailableError(
          response.status === 403
            ? `Keystone does not let ${this.config.username} validate tokens (HTTP 403)`
            : `Keystone answered HTTP ${response.status} to a token validation`,
        );
    }
  }

  private async call(path: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetch(`${this.config.url}${path}`, {
        ...init,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new KeystoneUnavailableError(
        `Keystone at ${this.config.url} is unreachable: ${reasonOf(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  private async json(response: Response): Promise<unknown> {
    try {
      return await response.json();
    } catch (error) {
      throw new KeystoneUnavailableError(`Keystone's answer is unreadable: ${reasonOf(error)}`, {
        cause: error,
      });
    }
  }
}
