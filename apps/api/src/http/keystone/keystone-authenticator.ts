import { createHash } from 'node:crypto';
import type { KeystoneConfig } from '#hawser/platform';
import type { Authenticator } from '../authenticator.js';
import type { AuthContext } from '../request-context.js';
import { ExpiringCache, trustedUntil } from './expiring-cache.js';
import {
  KeystoneClient,
  type Fetch,
  type ServiceToken,
  type Validation,
} from './keystone-client.js';
import { authContextOf } from './keystone-token.js';
import { KeystoneUnavailableError } from './keystone-unavailable.error.js';

export interface KeystoneAuthenticatorOptions {
  /** The HTTP client; tests pass a wrapper that counts requests. */
  readonly fetch?: Fetch;
  /** Milliseconds since the epoch; tests pass a clock they move. */
  readonly now?: () => number;
  /** How long one request to Keystone may take (default 5 s). */
  readonly timeoutMs?: number;
  /** How long a refused token is refused without asking again (default 10 s). */
  readonly negativeCacheMs?: number;
  /** At most this many validated or refused tokens are remembered (default 10,000). */
  readonly maxCachedTokens?: number;
  /** The service token is replaced this long before it expires (default 60 s). */
  readonly serviceTokenMarginMs?: number;
}

/** `auth` undefined: Keystone refused the token, or it is not scoped to a project. */
interface Verdict {
  readonly auth: AuthContext | undefined;
}

/** Token shapes no Keystone issues are refused without a request (they could not be sent). */
const PLAUSIBLE_TOKEN = /^[\x21-\x7e]{1,8192}$/;

/**
 * Validates callers' tokens against Keystone the way keystonemiddleware's auth_token does:
 * Hawser holds a service token of its own (password method, project-scoped), asks
 * GET /v3/auth/tokens about each caller's token, and remembers the answers for a while.
 * Revoking a token therefore takes effect here after at most the cache time.
 */
export class KeystoneAuthenticator implements Authenticator {
  private readonly client: KeystoneClient;
  private readonly now: () => number;
  private readonly negativeCacheMs: number;
  private readonly serviceTokenMarginMs: number;
  private readonly verdicts: ExpiringCache<Verdict>;
  /** Concurrent requests with one token share one validation. */
  private readonly validating = new Map<string, Promise<Verdict>>();
  private serviceToken: ServiceToken | undefined;
  private issuingServiceToken: Promise<ServiceToken> | undefined;

  constructor(
    private readonly config: KeystoneConfig,
    options: KeystoneAuthenticatorOptions = {},
  ) {
    this.client = new KeystoneClient(config, options.fetch ?? fetch, options.timeoutMs ?? 5000);
    this.now = options.now ?? Date.now;
    this.negativeCacheMs = options.negativeCacheMs ?? 10_000;
    this.serviceTokenMarginMs = options.serviceTokenMarginMs ?? 60_000;
    this.verdicts = new ExpiringCache(options.maxCachedTokens ?? 10_000, this.now);
  }

  async authenticate(token: string | undefined): Promise<AuthContext | undefined> {
    if (!token || !PLAUSIBLE_TOKEN.test(token)) return undefined;
    // Keyed by a digest, so the cache holds no usable credentials.
    const key = createHash('sha256').update(token).digest('base64url');
    const cached = this.verdicts.get(key);
    if (cached) return cached.auth;
    let pending = this.validating.get(key);
    if (!pending) {
      pending = this.validate(key, token).finally(() => this.validating.delete(key));
      this.validating.set(key, pending);
    }
    return (await pending).auth;
  }

  private async validate(key: string, token: string): Promise<Verdict> {
    const serviceToken = await this.currentServiceToken();
    let validation = await this.client.validate(serviceToken, token);
    if (validation.outcome === 'service-token-rejected') {
      // Revoked or expired early (e.g. the service user's password changed): re-authenticate once.
      if (this.serviceToken?.token === serviceToken) this.serviceToken = undefined;
      validation = await this.client.validate(await this.currentServiceToken(), token);
    }
    return this.remember(key, validation);
  }

  private remember(key: string, validation: Validation): Verdict {
    const now = this.now();
    switch (validation.outcome) {
      case 'service-token-rejected':
        throw new KeystoneUnavailableError('Keystone rejects a service token it has just issued');
      case 'invalid': {
        const verdict = { auth: undefined };
        this.verdicts.set(key, verdict, now + this.negativeCacheMs);
        return verdict;
      }
      case 'valid': {
        const auth = authContextOf(validation.token);
        const until = auth
          ? trustedUntil(now, this.config.cacheS, validation.token.expiresAtMs)
          : Math.min(now + this.negativeCacheMs, validation.token.expiresAtMs);
        const verdict = { auth };
        this.verdicts.set(key, verdict, until);
        return verdict;
      }
    }
  }

  private async currentServiceToken(): Promise<string> {
    const held = this.serviceToken;
    if (held && this.now() < held.expiresAtMs - this.serviceTokenMarginMs) return held.token;
    this.issuingServiceToken ??= this.client.issueServiceToken().finally(() => {
      this.issuingServiceToken = undefined;
    });
    const issued = await this.issuingServiceToken;
    this.serviceToken = issued;
    return issued.token;
  }
}
