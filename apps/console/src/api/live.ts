import { createClient, type Client } from 'graphql-ws';

/**
 * How long after subscribing (or reconnecting) the page reads once more: graphql-ws confirms
 * no subscription, so a change committed between the page's first read and the server's
 * listening would otherwise be missed.
 */
const CATCH_UP_MS = 500;

/** The GraphQL subscriptions of this origin, authenticated by the token in the connection. */
export const liveClient = (token: string): Client => {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return createClient({
    url: `${scheme}//${location.host}/graphql`,
    connectionParams: { authToken: token },
    lazy: true,
    retryAttempts: 5,
  });
};

export interface LiveHandlers<T> {
  /** Each pushed result. */
  readonly onData: (data: T) => void;
  /** Shortly after the subscription starts or its connection comes back: read once more. */
  readonly onCatchUp?: () => void;
  readonly onError?: (message: string) => void;
}

/** Follows a subscription until the returned function is called. */
export const subscribe = <T>(
  client: Client,
  query: string,
  variables: Record<string, unknown>,
  { onData, onCatchUp, onError }: LiveHandlers<T>,
): (() => void) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const catchUp = () => {
    if (!onCatchUp) return;
    clearTimeout(timer);
    timer = setTimeout(onCatchUp, CATCH_UP_MS);
  };
  const stopListening = client.on('connected', catchUp);
  const unsubscribe = client.subscribe<T>(
    { query, variables },
    {
      next: (result) => {
        if (result.data) onData(result.data as T);
      },
      error: (error) =>
        onError?.(error instanceof Error ? error.message : 'The live connection was refused.'),
      complete: () => undefined,
    },
  );
  catchUp();
  return () => {
    clearTimeout(timer);
    stopListening();
    unsubscribe();
  };
};
