import { derivedId, uuidV5 } from './deterministic-id.js';

describe('uuidV5', () => {
  it('matches the RFC 4122 DNS-namespace vector for python.org', () => {
    // Python: uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org')
    expect(uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '886313e1-3b8a-5372-9b90-0c9aee199e5d',
    );
  });

  it('derives the same id for the same cause and purpose, and different ones otherwise', () => {
    const cause = '0b6f1c1e-2a57-4a0e-9b59-4c8f5d7a1e11';
    expect(derivedId(cause, 'schedule')).toBe(derivedId(cause, 'schedule'));
    expect(derivedId(cause, 'schedule')).not.toBe(derivedId(cause, 'create'));
    expect(derivedId(cause, 0)).not.toBe(derivedId(cause, 1));
  });
});
