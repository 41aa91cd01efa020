import { ApiError, errorMessageOf } from './errors';

/** The microversion the console speaks: the newest Hawser serves (scheduler hints need 2.65). */
export const MICROVERSION = '2.73';

export interface ApiClient {
  readonly token: string;
  rest<T>(method: string, path: string, body?: unknown): Promise<T>;
  graphql<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
}

const readBody = async (response: Response): Promise<unknown> => {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** The public REST and GraphQL APIs, with the caller's token in a header (never in the URL). */
export const apiClient = (token: string): ApiClient => ({
  token,
  async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(path, {
      method,
      headers: {
        'X-Auth-Token': token,
        'X-OpenStack-Manila-API-Version': MICROVERSION,
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const parsed = await readBody(response);
    if (!response.ok) throw new ApiError(response.status, errorMessageOf(response.status, parsed));
    return parsed as T;
  },
  async graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const parsed = (await readBody(response)) as { data?: T; errors?: unknown[] } | undefined;
    if (!response.ok || parsed?.errors?.length || !parsed?.data) {
      throw new ApiError(response.status, errorMessageOf(response.status, parsed));
    }
    return parsed.data;
  },
});
