import { GraphQLError } from 'graphql';

/** GraphQL's conventional error codes for the HTTP statuses the API's errors carry. */
const CODE_OF: Readonly<Record<number, string>> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'OVER_LIMIT',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * An error of the API as a GraphQL error: the same message as the REST fault body, the status
 * and a code in `extensions`. The response stays 200 with `errors`, as GraphQL clients expect.
 */
export const graphqlErrorOf = (status: number, message: string): GraphQLError =>
  new GraphQLError(message, {
    extensions: { code: CODE_OF[status] ?? 'INTERNAL_SERVER_ERROR', status },
  });
