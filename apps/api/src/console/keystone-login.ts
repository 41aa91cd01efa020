import type { KeystoneConfig } from '#hawser/platform';
import { ManilaHttpError } from '../http/manila-error.js';

export interface LoginRequest {
  readonly username: string;
  readonly password: string;
  readonly project: string;
  readonly domain: string;
}

export interface IssuedLogin {
  readonly token: string;
  readonly expiresAt: string;
}

const textField = (body: Record<string, unknown>, name: string): string => {
  const value = body[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ManilaHttpError(400, `${name} is required.`);
  }
  return value;
};

/** The console's sign-in form, checked before Keystone is asked anything. */
export const loginRequestOf = (body: unknown): LoginRequest => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ManilaHttpError(400, 'Malformed request body');
  }
  const fields = body as Record<string, unknown>;
  return {
    username: textField(fields, 'username'),
    password: textField(fields, 'password'),
    project: textField(fields, 'project'),
    domain: typeof fields.domain === 'string' && fields.domain !== '' ? fields.domain : 'Default',
  };
};

/**
 * Asks Keystone for a project-scoped token with the user's password, as the manila CLI would:
 * the password goes to Keystone and is kept nowhere; the token goes back to the browser tab.
 */
export const keystoneLogin = async (
  keystone: KeystoneConfig,
  login: LoginRequest,
  timeoutMs = 10_000,
): Promise<IssuedLogin> => {
  let response: Response;
  try {
    response = await fetch(`${keystone.url}/auth/tokens?nocatalog`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
      body: JSON.stringify({
        auth: {
          identity: {
            methods: ['password'],
            password: {
              user: {
                name: login.username,
                domain: { name: login.domain },
                password: login.password,
              },
            },
          },
          scope: { project: { name: login.project, domain: { name: login.domain } } },
        },
      }),
    });
  } catch {
    throw new ManilaHttpError(503, 'The identity service is unavailable. Please try again later.');
  }
  const token = response.headers.get('X-Subject-Token');
  if (response.status === 201 && token) {
    const body = (await response.json()) as { token?: { expires_at?: string } };
    return { token, expiresAt: body.token?.expires_at ?? '' };
  }
  await response.body?.cancel();
  if (response.status === 401 || response.status === 404 || response.status === 400) {
    throw new ManilaHttpError(
      401,
      'The user name, password or project is not right, or the user has no role in the project.',
    );
  }
  throw new ManilaHttpError(503, 'The identity service is unavailable. Please try again later.');
};
