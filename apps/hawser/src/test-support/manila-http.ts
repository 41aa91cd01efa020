export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of any shape
}

export interface RequestOptions {
  /** `X-Auth-Token`; an empty string sends none. */
  token?: string;
  version?: string;
  headers?: Record<string, string>;
  /** A raw body sent as is (malformed JSON tests). */
  raw?: string;
}

export const ADMIN_TOKEN = 'admin:11111111111111111111111111111111';

/** One request to a Manila-style endpoint; the body is parsed as JSON when it is JSON. */
export const manilaRequest = async (
  baseUrl: string,
  method: string,
  route: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<ApiResponse> => {
  const headers: Record<string, string> = {
    'X-OpenStack-Manila-API-Version': options.version ?? '2.72',
    ...(options.token !== '' && { 'X-Auth-Token': options.token ?? ADMIN_TOKEN }),
    ...options.headers,
  };
  if (body !== undefined || options.raw !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers,
    body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed };
};
