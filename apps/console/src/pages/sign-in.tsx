import { useEffect, useState } from 'preact/hooks';
import { ApiError, errorMessageOf } from '../api/errors';
import { ErrorText } from '../components/common';
import { messageOf } from '../hooks';

type AuthMode = 'noauth' | 'keystone';

/** Asks Hawser for a Keystone token with the user's password (POST /ui/session). */
const keystoneToken = async (fields: Record<string, string>): Promise<string> => {
  const response = await fetch('/ui/session', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(fields),
  });
  const body = (await response.json().catch(() => undefined)) as { token?: string } | undefined;
  if (!response.ok || !body?.token) {
    throw new ApiError(response.status, errorMessageOf(response.status, body));
  }
  return body.token;
};

export const SignIn = ({ onToken }: { onToken: (token: string) => Promise<void> }) => {
  const [mode, setMode] = useState<AuthMode | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    fetch('/ui/config.json')
      .then((response) => response.json() as Promise<{ auth: AuthMode }>)
      .then((config) => setMode(config.auth))
      .catch(() => setError('Hawser did not answer; try again.'));
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const fields = Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]));
    setBusy(true);
    setError(undefined);
    try {
      const token =
        mode === 'keystone' ? await keystoneToken(fields) : (fields['token'] ?? '').trim();
      await onToken(token);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <h1>Hawser console</h1>
      <form onSubmit={(e) => void submit(e)} aria-label="Sign in" class="card">
        {mode === 'noauth' && (
          <label>
            Token (<code>user:project[:roles]</code>)
            <input name="token" required autoComplete="username" placeholder="alice:demo:member" />
          </label>
        )}
        {mode === 'keystone' && (
          <>
            <label>
              User name
              <input name="username" required autoComplete="username" />
            </label>
            <label>
              Password
              <input name="password" type="password" required autoComplete="current-password" />
            </label>
            <label>
              Project
              <input name="project" required />
            </label>
            <label>
              Domain
              <input name="domain" defaultValue="Default" />
            </label>
          </>
        )}
        <ErrorText message={error} />
        <button type="submit" disabled={busy || !mode}>
          Sign in
        </button>
      </form>
    </main>
  );
};
