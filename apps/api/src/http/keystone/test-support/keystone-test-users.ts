import { loadConfig, type KeystoneConfig } from '#hawser/platform';

// Test support. tools/keystone/start-keystone.sh starts a real Keystone and prints these
// variables: KEYSTONE_URL and KEYSTONE_<WHO>_USERNAME, _PASSWORD and _PROJECT.
const env = process.env;

export const keystoneUrl = env['KEYSTONE_URL'];

/** A describe block that runs against the real Keystone, or is reported skipped with why. */
export const describeWithKeystone = keystoneUrl
  ? describe
  : (name: string, body: () => void) =>
      describe.skip(`${name} (skipped: KEYSTONE_URL not set, see tools/keystone)`, body);

export type Who = 'ADMIN' | 'MEMBER' | 'READER' | 'SERVICE';

/** The HAWSER_* variables that make Hawser validate tokens with the test service user. */
export const hawserKeystoneEnv = (url: string, cacheS = 300): Record<string, string> => ({
  HAWSER_AUTH: 'keystone',
  HAWSER_KEYSTONE_URL: url,
  HAWSER_KEYSTONE_USERNAME: env['KEYSTONE_SERVICE_USERNAME'] ?? 'hawser',
  HAWSER_KEYSTONE_PASSWORD: env['KEYSTONE_SERVICE_PASSWORD'] ?? 'unused',
  HAWSER_KEYSTONE_PROJECT: env['KEYSTONE_SERVICE_PROJECT'] ?? 'service',
  HAWSER_KEYSTONE_CACHE_S: String(cacheS),
});

export const keystoneSettings = (url: string, cacheS = 300): KeystoneConfig =>
  loadConfig(hawserKeystoneEnv(url, cacheS)).keystone as KeystoneConfig;

export interface IssuedToken {
  readonly token: string;
  readonly userId: string;
  readonly projectId: string | undefined;
}

/** Logs in as a test user, as a client such as the manila CLI would. */
export const issueToken = async (who: Who, scoped = true): Promise<IssuedToken> => {
  const user = { name: env[`KEYSTONE_${who}_USERNAME`], domain: { name: 'Default' } };
  const response = await fetch(`${keystoneUrl}/auth/tokens?nocatalog`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { ...user, password: env[`KEYSTONE_${who}_PASSWORD`] } },
        },
        ...(scoped && {
          scope: {
            project: { name: env[`KEYSTONE_${who}_PROJECT`], domain: { name: 'Default' } },
          },
        }),
      },
    }),
  });
  if (response.status !== 201) {
    throw new Error(`Keystone refused to log ${who} in: HTTP ${response.status}`);
  }
  const body = (await response.json()) as {
    token: { user: { id: string }; project?: { id: string } };
  };
  return {
    token: response.headers.get('X-Subject-Token') as string,
    userId: body.token.user.id,
    projectId: body.token.project?.id,
  };
};

/** Revokes a token, as `openstack token revoke` does. */
export const revokeToken = async (adminToken: string, token: string): Promise<void> => {
  const response = await fetch(`${keystoneUrl}/auth/tokens`, {
    method: 'DELETE',
    headers: { 'X-Auth-Token': adminToken, 'X-Subject-Token': token },
  });
  if (response.status !== 204) throw new Error(`Keystone did not revoke: HTTP ${response.status}`);
};
