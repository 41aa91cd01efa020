import { uuidV5 } from '#hawser/domain';
import { derivedId } from './derived-id.js';

describe('derivedId', () => {
  it('implements RFC 4122 version 5: the DNS namespace vector for www.example.com', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it("given an event id and a purpose, returns the v5 id of '<event id>:<purpose>' in Hawser's namespace", () => {
    // Computed independently (Python's uuid.uuid5) from namespace 5e0b1c4a-7f7d-4a56-9f1e-3b8c2f6d9a10.
    expect(derivedId('0b7e6f4c-1d2a-4c3b-9e8f-7a6b5c4d3e2f', 'schedule')).toBe(
      '4ea6ef24-663d-51f2-bdbc-400ba70c73fa',
    );
  });

  it('is the same for the same cause and purpose, and differs for another purpose', () => {
    const eventId = '0b7e6f4c-1d2a-4c3b-9e8f-7a6b5c4d3e2f';

    expect(derivedId(eventId, 'create')).toBe(derivedId(eventId, 'create'));
    expect(derivedId(eventId, 'create')).not.toBe(derivedId(eventId, 'delete'));
    expect(derivedId(eventId, 'create')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
