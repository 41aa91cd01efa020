import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { ADMIN_TOKEN } from './manila-http.js';

export interface GraphqlResponse {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of any shape
  readonly body: any;
}

/** One GraphQL operation over HTTP, as a client sends it: POST /graphql with X-Auth-Token. */
export const graphqlRequest = async (
  baseUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
  token: string = ADMIN_TOKEN,
): Promise<GraphqlResponse> => {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token !== '' && { 'X-Auth-Token': token }),
    },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
};

/** A graphql-ws client on the server's /graphql, authenticated by its connection params. */
export const graphqlSocket = (baseUrl: string, token: string = ADMIN_TOKEN): Client =>
  createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authToken: token },
    retryAttempts: 0,
    lazy: true,
  });
