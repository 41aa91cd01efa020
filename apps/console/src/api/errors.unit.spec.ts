import { errorMessageOf } from './errors';

describe('errorMessageOf: the API’s own words for a refusal', () => {
  it('given a Manila fault body, when read, then its message is shown as Manila worded it', () => {
    const body = { badRequest: { code: 400, message: 'Invalid share size.' } };
    expect(errorMessageOf(400, body)).toBe('Invalid share size.');
  });

  it('given a GraphQL error list, when read, then the first message is shown', () => {
    const body = { errors: [{ message: 'Share abc could not be found.' }], data: null };
    expect(errorMessageOf(200, body)).toBe('Share abc could not be found.');
  });

  it('given a body without a message, when read, then the status is named', () => {
    expect(errorMessageOf(502, 'Bad gateway')).toBe('The request failed (HTTP 502).');
    expect(errorMessageOf(500, undefined)).toBe('The request failed (HTTP 500).');
  });
});
